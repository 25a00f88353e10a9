; Reduction through the local data share: each warp sums its 4 values x[i] (word i,
; i = warp x 4 + lane: warps of 4 lanes) into s[warp x 4] (word 64 + warp x 4) and lane 0's
; r3, halving the active lanes each step (d = 2, 1): lanes below d add s[i + d] to their own
; partial sum.
        warp r1
        shli r1, r1, 2
        lane r2
        add  r1, r1, r2         ; i
        ld   r3, r1             ; x[i]
        st   r3, 16, 1          ; s[i] = word 64 + i
        addi r4, r1, 64         ; &s[i]
        li   r7, 2              ; d
step:   slt  r5, r2, r7         ; lane < d
        bz   r5, next, next     ; the other lanes wait at the join
        add  r6, r4, r7
        ld   r6, r6             ; s[i + d]
        add  r3, r3, r6
        st   r3, 16, 1
next:   join
        shri r7, r7, 1
        bany r7, step           ; the same d in every lane: a uniform loop
        exit
