fn main() -> anyhow::Result<()> {
    simt_rtl::export::generate(&["cu", "seed"], std::path::Path::new("rtl_out"))?;
    Ok(())
}
