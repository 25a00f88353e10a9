; Bitonic sort of 256 signed 32-bit values, ascending, in place (seed-core; `min`, `max`, `neg`,
; `slti`, `bar`, `threads`, `stx`): x at words 0..255, some negative (bitonic.lds). For k = 2,
; 4, ..., 256 and j = k / 2, ..., 1, thread t reads a[t] and a[p], p = t xor j, waits at `bar`
; until every thread has read, and keeps the lesser where (t < p) differs from (t and k != 0),
; else the greater; a second `bar` ends the step. A select without a branch: the mask m is 0
; or all ones (`neg` of 0 or 1) and the kept value is max xor ((min xor max) and m).
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        li   r15, 0
        li   r2, 2               ; k
stage:  shri r3, r2, 1           ; j
step:   xor  r4, r1, r3          ; p = t xor j
        ld   r5, r1              ; a[t]
        ld   r6, r4              ; a[p]
        bar                      ; every thread has read
        min  r7, r5, r6
        max  r8, r5, r6
        and  r9, r1, r2
        slt  r10, r15, r9        ; 1 where the block of k sorts descending
        slt  r11, r1, r4         ; t < p
        xor  r12, r10, r11       ; 1: t keeps the lesser
        neg  r12, r12            ; m
        xor  r13, r7, r8
        and  r13, r13, r12
        xor  r13, r8, r13
        stx  r13, r1
        bar                      ; every thread has written
        shri r3, r3, 1
        bany r3, step
        add  r2, r2, r2
        slti r14, r2, 257
        bany r14, stage          ; k <= 256
        exit
