; A 3-point blur, out[t] = (x[t - 1] + 2 x[t] + x[t + 1]) >> 2, the ends clamped (seed-core;
; `max` and `minu` of extension `minmax` for the clamp, `threads`, `stx` base + offset): x at words 0..255,
; each below 2^16 (blur.lds); thread t = warp x threads + lane stores out[t] at word 256 + t.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        li   r15, 0
        ld   r4, r1              ; x[t]
        addi r5, r1, -1
        max  r5, r5, r15         ; max(t - 1, 0), signed: thread 0's -1 is 0
        li   r6, 255
        addi r7, r1, 1
        minu r7, r7, r6          ; min(t + 1, 255)
        ld   r5, r5
        ld   r7, r7
        add  r8, r4, r4
        add  r8, r8, r5
        add  r8, r8, r7
        shri r8, r8, 2
        stx  r8, 256(r1)
        exit
