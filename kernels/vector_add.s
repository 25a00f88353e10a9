; Vector add: c[i] = a[i] + b[i] for thread i = warp x 4 + lane (warps of 4 lanes).
; Local data share in: a[i] at word i, b[i] at word 32 + i. Out: c[i] at word 64 + i
; (owner-computes store: row (i >> 2) x 1 + 16 of bank i mod 4, word 4 x row + bank).
        warp r1
        shli r1, r1, 2
        lane r2
        add  r1, r1, r2         ; i
        ld   r3, r1             ; a[i]
        addi r4, r1, 32
        ld   r5, r4             ; b[i]
        add  r6, r3, r5
        st   r6, 16, 1          ; c[i]
        exit
