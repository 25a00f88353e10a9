; Dot product of two 256-element vectors of 32-bit values (seed-core: 8 warps x 32 lanes; uses
; `mul` and `bar`). x is at words 0..255, y at 256..511 (dot.lds). Thread t = warp x 32 + lane
; multiplies p[t] = x[t] x y[t] (the low 32 bits) into s[t] (word 512 + t); each warp sums its
; 32 products in a tree (s[warp x 32] = its partial sum); past `bar` every thread adds the 8
; partial sums into r8, the dot product mod 2^32, and stores it at word 768 + t.
        warp r1
        shli r1, r1, 5
        lane r2
        add  r1, r1, r2         ; t
        ld   r3, r1             ; x[t]
        addi r4, r1, 256
        ld   r4, r4             ; y[t]
        mul  r3, r3, r4         ; p[t]
        st   r3, 64, 1          ; s[t] = word 512 + t
        addi r4, r1, 512        ; &s[t]
        li   r7, 16             ; d
step:   slt  r5, r2, r7         ; lane < d
        bz   r5, next, next     ; the other lanes wait at the join
        add  r6, r4, r7
        ld   r6, r6             ; s[t + d]
        add  r3, r3, r6
        st   r3, 64, 1
next:   join
        shri r7, r7, 1
        bany r7, step           ; the same d in every lane: a uniform loop
        bar                     ; every warp's s[warp x 32] is final
        li   r9, 512            ; &s[0]
        li   r10, 8             ; warps left to add
sum:    ld   r11, r9
        add  r8, r8, r11
        addi r9, r9, 32
        addi r10, r10, -1
        bany r10, sum           ; uniform: 8 turns in every lane
        st   r8, 96, 1          ; word 768 + t
        exit
