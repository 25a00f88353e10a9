; SAXPY in 32-bit integers, wrapping (seed-core; `li` of a 32-bit constant, `mul`, `threads`,
; `stx`, base + offset addressing): x at words 0..255, y at 256..511 (saxpy.lds). Thread t = warp x threads + lane
; leaves y[t] = a x x[t] + y[t] (mod 2^32) in word 256 + t, with a = 3000000019.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        li   r4, 3000000019      ; a (0xb2d05e13): lui + addi
        ld   r5, r1              ; x[t]
        ld   r7, 256(r1)         ; y[t]
        mul  r5, r5, r4
        add  r7, r7, r5
        stx  r7, 256(r1)
        exit
