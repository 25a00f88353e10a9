#!/usr/bin/env bash
# Builds docs/src/library.md's snippets as a crate of their own, as a user of the library would:
# its `[dependencies]` and `[patch.crates-io]` blocks (their paths pointed at this checkout) in
# the crate's Cargo.toml, each of its `rust` blocks a binary. `cargo check` by default (a step of
# the test command, which checks the library without its default features through it);
# `--run` builds and runs each binary. The crate is written under target/library-snippet/ and
# built into this checkout's target/ (the dependencies already built there are reused).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
page=docs/src/library.md
dir=target/library-snippet
mode=check
case "${1:-}" in
    "") ;;
    --run) mode=run ;;
    *) echo "library-snippet: unknown argument \`$1\` (the only one is --run)" >&2; exit 2 ;;
esac

rm -rf "$dir"
mkdir -p "$dir/src/bin"
python3 - "$page" "$dir" "$root" <<'EOF'
import re, sys, pathlib
page, out, root = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
text = open(page).read()
blocks = re.findall(r"^```(\w[\w,]*)\n(.*?)^```$", text, re.S | re.M)
toml = [b for lang, b in blocks if lang == "toml"]
rust = [b for lang, b in blocks if lang == "rust"]
deps = [b for b in toml if b.startswith("[dependencies]")]
patch = [b for b in toml if b.startswith("[patch.crates-io]")]
if len(deps) != 1 or len(patch) != 1 or not rust:
    sys.exit(f"library-snippet: {page} must hold one [dependencies] block, one [patch.crates-io] block and a rust block (found {len(deps)}, {len(patch)}, {len(rust)})")
deps = deps[0].replace('path = "../simt-rtl"', f'path = "{root}"')
patch = patch[0].replace('path = "vendor/rust-hdl-core"', f'path = "{root}/vendor/rust-hdl-core"')
if root not in deps or root not in patch:
    sys.exit(f"library-snippet: {page}'s dependency is no longer `path = \"../simt-rtl\"` or its patch `path = \"vendor/rust-hdl-core\"`: update this script with the page")
# The checkout's own profiles, so that the dependencies built for its tests are reused.
manifest = open(f"{root}/Cargo.toml").read()
profiles = manifest[manifest.index("[profile.dev]"):manifest.index("[patch.crates-io]")]
(out / "Cargo.toml").write_text(
    '[package]\nname = "library-snippet"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
    f"[workspace]\n\n{deps}\n{profiles}{patch}")
for i, code in enumerate(rust, 1):
    (out / "src" / "bin" / f"snippet_{i}.rs").write_text(code)
EOF
cp Cargo.lock "$dir/"
cd "$dir"
export CARGO_TARGET_DIR="$root/target"
if [ "$mode" = check ]; then
    cargo check --offline --quiet --bins
else
    for bin in src/bin/*.rs; do
        cargo run --offline --quiet --bin "$(basename "$bin" .rs)"
    done
fi
