; Signed max-reduction of 256 32-bit values, some negative (seed-core; `max` of extension
; `minmax`, `threads`, `stx`, `bar`): x at words 0..255 (maxreduce.lds). Thread t = warp x
; threads + lane copies x[t] to s[t] (word 256 + t); each warp then halves its lanes in a tree:
; the upper half of the lanes still in it exits, the lower half takes the max with its partner.
; Past `bar` (one lane left in each warp), lane 0 of warp 0 takes the max of the warps' s[w x
; threads] into word 512; every other warp exits.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        ld   r4, r1              ; x[t]
        addi r5, r1, 256         ; &s[t]
        stx  r4, r5
        shri r6, r2, 1           ; d = threads / 2
step:   slt  r7, r3, r6          ; lane < d: stays
        bz   r7, gone, j1        ; the others leave
        add  r8, r5, r6
        ld   r8, r8              ; s[t + d]
        max  r4, r4, r8
        stx  r4, r5
        jmp  j1
gone:   exit
j1:     join
        shri r6, r6, 1
        bany r6, step            ; the same d in every lane left
        bar                      ; every warp's s[w x threads] is final
        warp r1
        bnz  r1, quit, j2        ; warp 0 alone goes on
        li   r9, 256             ; &s[0]
        ld   r4, r9
        li   r10, 7              ; the other 7 warps
more:   add  r9, r9, r2
        ld   r8, r9
        max  r4, r4, r8
        addi r10, r10, -1
        bany r10, more
        li   r11, 512
        stx  r4, r11
        jmp  j2
quit:   exit
j2:     join
        exit
