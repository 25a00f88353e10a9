"""An interactive SMT-LIB2 solver on stdin and stdout over Bitwuzla's Python parser, for
yosys-smtbmc's `-s bitwuzla` (which starts `bitwuzla --smt2 -i`, writes one command at a time and
waits for the answer to each `check-sat` and `get-value`). PyPI's `bitwuzla` wheel carries the
solver as a Python module only, without the command-line program.

scripts/install-tools.sh installs this file as `bitwuzla` in the solvers' venv, with that venv's
Python. Each complete command (parentheses balanced outside `|quoted symbols|`, strings and
comments) goes to one parser, which keeps its assertions and declarations from call to call and
prints the answers; a command it cannot parse ends the run with `(error "...")` and exit code 1.
`bitwuzla --version` prints the module's version; other arguments (`--smt2`, `-i`) are the
defaults here and ignored.
"""

import sys

import bitwuzla


def commands(stream):
    """Yields each top-level command of `stream`, comments removed."""
    text, depth, state = [], 0, None  # state: None, "|" (quoted symbol) or '"' (string)
    for line in stream:
        for ch in line:
            if state is not None:
                text.append(ch)
                if ch == state:
                    state = None
                continue
            if ch == ";":
                break  # a comment runs to the end of the line
            text.append(ch)
            if ch in '|"':
                state = ch
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    yield "".join(text).strip()
                    text = []
        if state is None and depth == 0 and "".join(text).strip() == "":
            text = []


def main():
    if "--version" in sys.argv[1:]:
        print(f"bitwuzla {bitwuzla.version()} (PyPI module, scripts/bitwuzla_smt2.py)")
        return 0
    options = bitwuzla.Options()
    options.set(bitwuzla.Option.PRODUCE_MODELS, True)
    parser = bitwuzla.Parser(bitwuzla.TermManager(), options)
    for command in commands(sys.stdin):
        if command.startswith("(exit"):
            break
        try:
            parser.parse(command, False, False)
        except bitwuzla.BitwuzlaException as e:
            message = str(e).replace('"', "'")
            print(f'(error "{message}")', flush=True)
            return 1
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(1)
