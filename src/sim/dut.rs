//! The port-level view of a rust-hdl block that the runners drive.

use rust_hdl::prelude::*;

/// One port of the harness: a Verilog port of up to 64 bits, or one 64-bit word of a wider one
/// (a `u64` per port everywhere: stimulus, outputs, models).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// The Verilog port's name, or `name[msb:lsb]` for a word of a wider port.
    pub name: String,
    /// Its bits (at most 64).
    pub width: usize,
    /// The wider Verilog port this is a word of.
    pub part: Option<Part>,
}

/// Where a [`Port`] sits in a Verilog port wider than 64 bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The Verilog port's name.
    pub port: String,
    /// Its width.
    pub port_width: usize,
    /// The word's lowest bit in it.
    pub lsb: usize,
}

impl Port {
    /// The ports of a `width`-bit Verilog port `name`: itself up to 64 bits, else its 64-bit
    /// words, least significant first (`name[63:0]`, `name[127:64]`, ...).
    pub fn of(name: &str, width: usize) -> Vec<Port> {
        if width <= 64 {
            return vec![Port { name: name.to_string(), width, part: None }];
        }
        (0..width.div_ceil(64))
            .map(|i| {
                let (lsb, w) = (i * 64, 64.min(width - i * 64));
                Port {
                    name: format!("{name}[{}:{lsb}]", lsb + w - 1),
                    width: w,
                    part: Some(Part { port: name.to_string(), port_width: width, lsb }),
                }
            })
            .collect()
    }
    /// The Verilog ports of `ports` (a wide port once, not once per word), with their widths.
    pub fn verilog_ports(ports: &[Port]) -> impl Iterator<Item = (&str, usize)> {
        ports.iter().filter(|p| p.part.as_ref().is_none_or(|part| part.lsb == 0)).map(Port::verilog)
    }
    /// The Verilog port's name and width (this port's, or those of the port it is a word of).
    pub fn verilog(&self) -> (&str, usize) {
        match &self.part {
            Some(p) => (&p.port, p.port_width),
            None => (&self.name, self.width),
        }
    }
    /// This port in a testbench whose signal for Verilog port `x` is `{prefix}x`: the signal, or
    /// its part-select.
    pub fn in_testbench(&self, prefix: &str) -> String {
        match &self.part {
            Some(p) => format!("{prefix}{}[{}:{}]", p.port, p.lsb + self.width - 1, p.lsb),
            None => format!("{prefix}{}", self.name),
        }
    }
}

/// A struct of port values declared with [`port_struct!`](crate::port_struct).
pub trait PortStruct: Sized {
    /// The ports' names, in port order.
    const NAMES: &'static [&'static str];
    /// The struct from the ports' words, in port order.
    fn from_words(words: &[u64]) -> Self;
    /// The ports' words, in port order.
    fn to_words(&self) -> Vec<u64>;
}

/// A port value that converts to and from `u64` words (one for up to 64 bits, else its 64-bit
/// words, least significant first, as [`Port::of`] names them).
pub trait Word: Synth {
    /// The value from the next words of `words` (as many as its width takes).
    fn from_words(words: &mut dyn Iterator<Item = u64>) -> Self;
    /// Appends the value's words to `out`.
    fn push_words(self, out: &mut Vec<u64>);
}

impl Word for bool {
    fn from_words(words: &mut dyn Iterator<Item = u64>) -> Self {
        words.next().expect("one word per input port") & 1 == 1
    }
    fn push_words(self, out: &mut Vec<u64>) {
        out.push(self as u64)
    }
}

impl<const N: usize> Word for Bits<N> {
    fn from_words(words: &mut dyn Iterator<Item = u64>) -> Self {
        let mut next = || words.next().expect("one word per input port");
        if N <= 64 {
            return Bits::<N>::from(next());
        }
        let w: Vec<u64> = (0..super::wide::word_count(N)).map(|_| next()).collect();
        super::wide::bits_of_words(&w)
    }
    fn push_words(self, out: &mut Vec<u64>) {
        if N <= 64 {
            out.push(self.to_u64());
        } else {
            out.extend(super::wide::words_of(self));
        }
    }
}

/// A block field that is one port or an array of ports (named `name$0`, `name$1`, ... in the
/// Verilog, as rust-hdl names array elements).
pub trait PortGroup {
    /// The harness's ports of field `name`.
    fn ports(&self, name: &str) -> Vec<Port>;
    /// Drives the field's inputs from the next words.
    fn drive_from(&mut self, words: &mut dyn Iterator<Item = u64>);
    /// Appends the field's values to `out`.
    fn sample_into(&self, out: &mut Vec<u64>);
}

// `val()` exists per direction, not generically: one impl each for inputs and outputs.
macro_rules! signal_port_group {
    ($dir:ty) => {
        impl<T: Word> PortGroup for Signal<$dir, T> {
            fn ports(&self, name: &str) -> Vec<Port> {
                Port::of(name, T::BITS)
            }
            fn drive_from(&mut self, words: &mut dyn Iterator<Item = u64>) {
                self.next = T::from_words(words);
            }
            fn sample_into(&self, out: &mut Vec<u64>) {
                self.val().push_words(out);
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
    /// The input ports, in the order [`Dut::drive`] takes their words.
    fn input_ports(&self) -> Vec<Port>;
    /// The output ports, in the order [`Dut::sample`] gives their words.
    fn output_ports(&self) -> Vec<Port>;
    /// Sets the inputs (their `next`) from one word per port.
    fn drive(&mut self, words: &[u64]);
    /// The outputs' values, one word per port.
    fn sample(&self) -> Vec<u64>;
    /// Sets the clock input high or low (a clocked block; nothing for a combinational one).
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
