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

/// Width in bits of a signal's type.
pub fn width_of<D: Direction, T: Synth>(_: &Signal<D, T>) -> usize {
    T::BITS
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
}

/// Implements [`Dut`] for a block from its clock (if any), input and output field names.
#[macro_export]
macro_rules! dut_ports {
    (@common inputs: [$($i:ident),*], outputs: [$($o:ident),*]) => {
        fn input_ports(&self) -> Vec<$crate::verify::Port> {
            vec![$($crate::verify::Port {
                name: stringify!($i).to_string(),
                width: $crate::verify::dut::width_of(&self.$i),
            }),*]
        }
        fn output_ports(&self) -> Vec<$crate::verify::Port> {
            vec![$($crate::verify::Port {
                name: stringify!($o).to_string(),
                width: $crate::verify::dut::width_of(&self.$o),
            }),*]
        }
        fn drive(&mut self, words: &[u64]) {
            let mut it = words.iter().copied();
            $(self.$i.next = $crate::verify::Word::from_word(it.next().expect("one word per input"));)*
        }
        fn sample(&self) -> Vec<u64> {
            vec![$($crate::verify::Word::to_word(self.$o.val())),*]
        }
    };
    (clock: $clk:ident, inputs: [$($i:ident),* $(,)?], outputs: [$($o:ident),* $(,)?]) => {
        fn clock_port(&self) -> Option<&'static str> {
            Some(stringify!($clk))
        }
        fn set_clock(&mut self, high: bool) {
            self.$clk.next = rust_hdl::prelude::Clock { clk: high };
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
