; Collatz steps (seed-core; divergent branches nested two deep in a loop whose trip count
; differs per lane, `threads`, `stx` base + offset): n at words 0..255 (collatz.lds), each 1 to 1,000. Thread
; t counts the steps n -> n / 2 (n even) or 3n + 1 (n odd) until n is 1, and stores the count
; at word 256 + t.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        ld   r4, r1              ; n
        li   r5, 0               ; steps
top:    addi r6, r4, -1          ; 0 once n is 1
        bz   r6, done, done      ; lanes done wait at the join
        andi r7, r4, 1
        bz   r7, even, j
        add  r8, r4, r4          ; odd: n = 3n + 1
        add  r4, r8, r4
        addi r4, r4, 1
        jmp  j
even:   shri r4, r4, 1
j:      join
        addi r5, r5, 1
done:   join
        addi r6, r4, -1
        bany r6, top             ; until every lane's n is 1
        stx  r5, 256(r1)
        exit
