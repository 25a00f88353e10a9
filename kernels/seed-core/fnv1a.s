; FNV-1a hash of each thread's word, byte by byte from the lowest (seed-core; `li` of 32-bit
; constants: `lui` + `addi`, `mul`, `threads`, `stx` base + offset): x at words 0..255 (fnv1a.lds). Thread t
; starts from the offset basis 2166136261, and for each of x[t]'s 4 bytes b: h = (h ^ b) x
; 16777619 (mod 2^32); h goes to word 256 + t.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        ld   r4, r1              ; x[t]
        li   r5, 2166136261      ; the offset basis, 0x811c9dc5
        li   r6, 16777619        ; the FNV prime, 0x01000193
        li   r7, 4               ; bytes left
byte:   andi r8, r4, 255
        xor  r5, r5, r8
        mul  r5, r5, r6
        shri r4, r4, 8
        addi r7, r7, -1
        bany r7, byte            ; 4 turns in every lane
        stx  r5, 256(r1)
        exit
