; Population count of 256 32-bit words (seed-core; `threads`, `stx` base + offset): x at words 0..255
; (popcount.lds). Thread t = warp x threads + lane counts the set bits of x[t], one bit a turn,
; until every lane's word is 0 (a lane whose word is 0 adds nothing), and stores the count at
; word 256 + t.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        ld   r4, r1              ; x[t]
        li   r5, 0               ; count
bit:    andi r6, r4, 1
        add  r5, r5, r6
        shri r4, r4, 1
        bany r4, bit             ; until every lane's word is 0
        stx  r5, 256(r1)
        exit
