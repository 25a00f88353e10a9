; Inclusive prefix sum of 256 32-bit values in place (seed-core; Hillis and Steele, with `bar`):
; x at words 0..255 (scan.lds). Thread t = warp x 32 + lane keeps r3 = x[t]; for d = 1, 2, 4,
; ..., 128 it adds x[t - d] when t >= d, waits at `bar` until every thread has read, stores r3
; at word t and waits again. At the end word t and r3 hold x[0] + ... + x[t] (mod 2^32).
        warp r1
        shli r1, r1, 5
        lane r2
        add  r1, r1, r2         ; t
        ld   r3, r1             ; x[t]
        li   r7, 1              ; d
        li   r10, 256
step:   li   r8, 0
        slt  r6, r1, r7         ; t < d
        bnz  r6, skip, skip     ; those lanes add 0 and wait at the join
        sub  r5, r1, r7
        ld   r8, r5             ; x[t - d]
skip:   join
        add  r3, r3, r8
        bar                     ; every thread has read this step's x
        st   r3, 0, 1           ; x[t] = r3
        bar                     ; every thread has written
        shli r7, r7, 1
        slt  r9, r7, r10
        bany r9, step           ; uniform: d = 1 ... 128
        exit
