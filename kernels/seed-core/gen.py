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
    with open(f"{name}.lds", "w") as f:
        f.write("".join(f"{v:x}\n" for v in lds))
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
