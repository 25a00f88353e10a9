"""Writes each kernel's .lds (pseudo-random inputs) and .seed-core.expect (what its header says it
computes, worked out here from the inputs, apart from the crate's interpreter and core).
Run from this folder: python3 gen.py"""
M = 1 << 32


def words(seed, n, bits):
    x, out = seed, []
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append((x >> 33) & ((1 << bits) - 1))
    return out


def write(name, lds, expect, how):
    """A negative word of `lds` is written as a negative decimal, the others in hex."""
    with open(f"{name}.lds", "w") as f:
        f.write("".join(f"{v}\n" if v < 0 else f"{v:x}\n" for v in lds))
    with open(f"{name}.seed-core.expect", "w") as f:
        f.write(f"# Expected results of {name}.s on the seed core (8 warps x 32 lanes, 32-bit values), with\n")
        f.write(f"# {name}.lds: {how} (worked out by gen.py from the inputs).\n")
        f.write("".join(f"lds {a} = {v}\n" for a, v in expect))


x, y = words(1, 256, 16), words(2, 256, 16)
dot = sum(a * b for a, b in zip(x, y)) % M
write("dot", x + y, [(768 + t, dot) for t in range(256)], "every thread stores the dot product at 768 + t")

a, b = words(3, 256, 20), words(4, 256, 20)
c = [sum(a[i * 16 + k] * b[k * 16 + j] for k in range(16)) % M for i in range(16) for j in range(16)]
write("matmul", a + b, [(512 + t, c[t]) for t in range(256)], "C = A x B at 512 + t")

s = words(5, 256, 32)
prefix, acc = [], 0
for v in s:
    acc = (acc + v) % M
    prefix.append(acc)
write("scan", s, list(enumerate(prefix)), "word t = x[0] + ... + x[t]")

h = words(6, 256, 4)
write("histogram", h, [(768 + b, h.count(b)) for b in range(16)], "bin b's count at 768 + b")


def signed(v):
    """A 32-bit word as a signed number."""
    v %= M
    return v - M if v >> 31 else v


def signed_words(seed, n, bits):
    """Signed values of `bits` bits, about half negative."""
    return [v - (1 << (bits - 1)) for v in words(seed, n, bits)]


x = signed_words(7, 256, 32)
write("maxreduce", x, [(512, max(x))], "the largest value, signed, at 512")

x = words(8, 256, 32)
write("popcount", x, [(256 + t, bin(v).count("1")) for t, v in enumerate(x)], "the set bits of x[t] at 256 + t")


def fnv1a(v):
    h = 2166136261
    for k in range(4):
        h = ((h ^ (v >> (8 * k) & 255)) * 16777619) % M
    return h


x = words(9, 256, 32)
write("fnv1a", x, [(256 + t, fnv1a(v)) for t, v in enumerate(x)], "FNV-1a of x[t]'s 4 bytes at 256 + t")

x, y = words(10, 256, 32), words(11, 256, 32)
write("saxpy", x + y, [(256 + t, (3000000019 * a + b) % M) for t, (a, b) in enumerate(zip(x, y))], "a x x[t] + y[t] at 256 + t")


def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


n = [1 + v % 1000 for v in words(12, 256, 16)]
write("collatz", n, [(256 + t, collatz(v)) for t, v in enumerate(n)], "the steps from x[t] to 1 at 256 + t")

a, b = signed_words(13, 64, 12), signed_words(14, 64, 12)
c = [max(0, sum(a[i * 8 + k] * b[k * 8 + j] for k in range(8))) for i in range(8) for j in range(8)]
write("relu_matmul", a + b, [(128 + t, c[t]) for t in range(64)], "C = max(A x B, 0) at 128 + t")

x = words(15, 256, 16)
blur = [(x[max(t - 1, 0)] + 2 * x[t] + x[min(t + 1, 255)]) >> 2 for t in range(256)]
write("blur", x, [(256 + t, v) for t, v in enumerate(blur)], "the blurred x[t] at 256 + t")

x = words(16, 256, 32)
write("xscan", x, [(t, sum(x[:t]) % M) for t in range(256)], "word t = x[0] + ... + x[t - 1]")

x = signed_words(17, 256, 32)
write("bitonic", x, list(enumerate(sorted(x))), "the values sorted, signed, ascending")


# The 4-deep if/else tree: its assembly is written here too (15 branches by one rule).
TREE_OPS = [  # (bit set, bit clear) at each level, on acc in r5
    ("addi r5, r5, 1000", "addi r5, r5, -7"),
    ("shli r5, r5, 1", "xori r5, r5, 0x55"),
    ("mul  r5, r5, r7", "addi r5, r5, 100"),
    ("ori  r5, r5, 0x100", "srai r5, r5, 1"),
]


def tree(level, labels):
    if level == len(TREE_OPS):
        return []
    n = labels[0] = labels[0] + 1
    bit = 1 << (len(TREE_OPS) - 1 - level)
    on, off = TREE_OPS[level]
    pad = "        "
    out = [f"{pad}andi r6, r4, {bit}", f"{pad}bnz  r6, then{n}, join{n}"]
    out += [f"{pad}{off}"] + tree(level + 1, labels) + [f"{pad}jmp  join{n}"]
    out += [f"then{n}:".ljust(8) + on] + tree(level + 1, labels)
    out += [f"join{n}:".ljust(8) + "join"]
    return out


header = """; A 4-deep if/else tree (seed-core; 15 divergent branches nested to the stack's depth of 8,
; `ori`, `xori`, `srai`, `mul`, `threads`, `stx` base + offset; written by gen.py): v at words 0..255, each 0
; to 255 (if_tree.lds). Thread t starts from acc = v and at each level, on bit 3, 2, 1 and 0 of
; v, takes one of two branches: acc + 1000 or acc - 7; acc << 1 or acc xor 0x55; acc x 3 or acc
; + 100; acc or 0x100 or acc >> 1 (arithmetic). acc goes to word 256 + t.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        ld   r4, r1              ; v
        mov  r5, r4              ; acc
        li   r7, 3
"""
with open("if_tree.s", "w") as f:
    f.write(header + "\n".join(tree(0, [0])) + "\n        stx  r5, 256(r1)\n        exit\n")


def if_tree(v):
    acc = v
    for level in range(4):
        if v >> (3 - level) & 1:
            acc = [acc + 1000, acc << 1, acc * 3, acc | 0x100][level]
        else:
            acc = [acc - 7, acc ^ 0x55, acc + 100, signed(acc) >> 1][level]
        acc %= M
    return acc


v = words(18, 256, 8)
write("if_tree", v, [(256 + t, if_tree(x)) for t, x in enumerate(v)], "acc down the tree at 256 + t")
