use rust_hdl::prelude::*;
use simt_rtl::blocks::*;
use simt_rtl::params::*;
fn main() {
    let mut a = SeedWarpScheduler::<8,3,32,32,8,4,64>::new().unwrap();
    a.connect_all();
    let v = generate_verilog(&a);
    println!("{}", v);
    yosys_validate("ws", &v).unwrap();
}
