//! The port-level view of a rust-hdl block that the runners drive.

use rust_hdl::prelude::*;

/// One port: its Verilog name and width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub width: usize,
}

/// A struct of port values declared with [`port_struct!`](crate::port_struct).
pub trait PortStruct: Sized {
    const NAMES: &'static [&'static str];
    fn from_words(words: &[u64]) -> Self;
    fn to_words(&self) -> Vec<u64>;
}

/// A port value that converts to and from a `u64` word.
pub trait Word: Synth {
    fn from_word(w: u64) -> Self;
    fn to_word(self) -> u64;
}

impl Word for bool {
    fn from_word(w: u64) -> Self {
        w & 1 == 1
    }
    fn to_word(self) -> u64 {
        self as u64
    }
}

impl<const N: usize> Word for Bits<N> {
    fn from_word(w: u64) -> Self {
        Bits::<N>::from(w)
    }
    fn to_word(self) -> u64 {
        self.to_u64()
    }
}

/// A block field that is one port or an array of ports (named `name$0`, `name$1`, ... in the
/// Verilog, as rust-hdl names array elements).
pub trait PortGroup {
    fn ports(&self, name: &str) -> Vec<Port>;
    fn drive_from(&mut self, words: &mut dyn Iterator<Item = u64>);
    fn sample_into(&self, out: &mut Vec<u64>);
}

// `val()` exists per direction, not generically: one impl each for inputs and outputs.
macro_rules! signal_port_group {
    ($dir:ty) => {
        impl<T: Word> PortGroup for Signal<$dir, T> {
            fn ports(&self, name: &str) -> Vec<Port> {
                vec![Port { name: name.to_string(), width: T::BITS }]
            }
            fn drive_from(&mut self, words: &mut dyn Iterator<Item = u64>) {
                self.next = T::from_word(words.next().expect("one word per input port"));
            }
            fn sample_into(&self, out: &mut Vec<u64>) {
                out.push(self.val().to_word());
            }
        }
    };
}
signal_port_group!(In);
signal_port_group!(Out);

impl<S: PortGroup, const N: usize> PortGroup for [S; N] {
    fn ports(&self, name: &str) -> Vec<Port> {
        self.iter().enumerate().flat_map(|(i, s)| s.ports(&format!("{name}${i}"))).collect()
    }
    fn drive_from(&mut self, words: &mut dyn Iterator<Item = u64>) {
        for s in self.iter_mut() {
            s.drive_from(words);
        }
    }
    fn sample_into(&self, out: &mut Vec<u64>) {
        for s in self.iter() {
            s.sample_into(out);
        }
    }
}

/// A rust-hdl block seen as ports: inputs driven and outputs sampled as `u64` words, in the
/// order of [`Dut::input_ports`] / [`Dut::output_ports`] (the Verilog port names).
pub trait Dut: Block {
    /// Name of the clock port, `None` for a combinational block.
    fn clock_port(&self) -> Option<&'static str>;
    fn input_ports(&self) -> Vec<Port>;
    fn output_ports(&self) -> Vec<Port>;
    fn drive(&mut self, words: &[u64]);
    fn sample(&self) -> Vec<u64>;
    fn set_clock(&mut self, high: bool);
    /// Output port `name` (`name$i` for element `i` of an array) in `outputs`, the words
    /// [`Dut::sample`] gave.
    fn output(&self, outputs: &[u64], name: &str) -> anyhow::Result<u64> {
        let names: Vec<String> = self.output_ports().into_iter().map(|p| p.name).collect();
        Ok(outputs[super::port_index(&names, name, "output")?])
    }
}

/// Implements [`Dut`] for a block from its clock (if any), input and output field names.
#[macro_export]
macro_rules! dut_ports {
    (@common inputs: [$($i:ident),*], outputs: [$($o:ident),*]) => {
        fn input_ports(&self) -> Vec<$crate::sim::Port> {
            let mut v = vec![];
            $(v.extend($crate::sim::dut::PortGroup::ports(&self.$i, stringify!($i)));)*
            v
        }
        fn output_ports(&self) -> Vec<$crate::sim::Port> {
            let mut v = vec![];
            $(v.extend($crate::sim::dut::PortGroup::ports(&self.$o, stringify!($o)));)*
            v
        }
        fn drive(&mut self, words: &[u64]) {
            let mut it = words.iter().copied();
            $($crate::sim::dut::PortGroup::drive_from(&mut self.$i, &mut it);)*
        }
        fn sample(&self) -> Vec<u64> {
            let mut v = vec![];
            $($crate::sim::dut::PortGroup::sample_into(&self.$o, &mut v);)*
            v
        }
    };
    (clock: $clk:ident, inputs: [$($i:ident),* $(,)?], outputs: [$($o:ident),* $(,)?]) => {
        fn clock_port(&self) -> Option<&'static str> {
            Some(stringify!($clk))
        }
        fn set_clock(&mut self, high: bool) {
            self.$clk.next = $crate::rust_hdl::prelude::Clock { clk: high };
        }
        $crate::dut_ports!(@common inputs: [$($i),*], outputs: [$($o),*]);
    };
    (inputs: [$($i:ident),* $(,)?], outputs: [$($o:ident),* $(,)?]) => {
        fn clock_port(&self) -> Option<&'static str> {
            None
        }
        fn set_clock(&mut self, _high: bool) {}
        $crate::dut_ports!(@common inputs: [$($i),*], outputs: [$($o),*]);
    };
}
