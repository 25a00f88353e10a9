; Cross-warp reduction with a barrier: each warp sums its 4 values x[i] (word i,
; i = warp x 4 + lane: warps of 4 lanes) into s[warp x 4] (word 64 + warp x 4), as reduce.s
; does; then `bar`: past it every warp's sum is in the local data share, so every lane of every
; warp adds the 4 sums into r8, the total of x[0..15], and stores it at word 128 + i.
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
        bar                     ; every warp's s[warp x 4] is final
        li   r9, 64             ; &s[0]
        li   r10, 4             ; warps left to add
sum:    ld   r11, r9
        add  r8, r8, r11
        addi r9, r9, 4
        addi r10, r10, -1
        bany r10, sum           ; uniform: 4 turns in every lane
        st   r8, 32, 1          ; word 128 + i
        exit
