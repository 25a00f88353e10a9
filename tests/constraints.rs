//! The committed constraint files are the ones `simt-rtl gen` writes from src/boards/pins.rs.

use std::path::Path;

#[test]
fn constraint_files_are_fresh() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("constraints");
    for b in simt_rtl::boards::BOARDS {
        let path = dir.join(b.constraint_file);
        let committed =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            committed,
            b.constraints(),
            "{} is stale: run `cargo run -- gen` and commit constraints/",
            path.display()
        );
    }
}
