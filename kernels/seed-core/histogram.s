; Histogram of 256 values into 16 bins of 32-bit counters (seed-core; uses `stx` and `bar`):
; x at words 0..255 (histogram.lds), each 0..15. Each warp counts its 32 values into its own 16
; counters h[warp][b] at word 512 + warp x 16 + b, one lane at a time (lane k reads, adds 1 and
; writes back with `stx` while the others wait), so no two stores of one counter meet. Past `bar`
; threads 0..15 of warp 0 add the 8 warps' counters of bin t and store the total at 768 + t.
        warp r1
        shli r12, r1, 5
        lane r2
        add  r12, r12, r2       ; t
        ld   r3, r12            ; x[t]
        shli r4, r1, 4
        addi r4, r4, 512
        add  r4, r4, r3         ; &h[warp][x[t]]
        li   r7, 0              ; k: the lane whose turn it is
        li   r10, 32
turn:   seq  r5, r2, r7
        bz   r5, next, next     ; only lane k counts this turn
        ld   r6, r4
        addi r6, r6, 1
        stx  r6, r4
next:   join
        addi r7, r7, 1
        slt  r9, r7, r10
        bany r9, turn           ; uniform: 32 turns
        bar                     ; every warp's counters are final
        li   r13, 16
        slt  r9, r12, r13       ; t < 16
        bz   r9, done, done     ; threads 16 and up have nothing to add
        addi r4, r12, 512       ; &h[0][t]
        li   r10, 8
sum:    ld   r11, r4
        add  r8, r8, r11
        addi r4, r4, 16
        addi r10, r10, -1
        bany r10, sum           ; uniform among the lanes still active
        addi r11, r12, 768
        stx  r8, r11            ; total of bin t at word 768 + t
done:   join
        exit
