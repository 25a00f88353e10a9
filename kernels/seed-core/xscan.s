; Exclusive prefix sum of 256 32-bit values in place, work-efficient (seed-core; Blelloch's
; up-sweep and down-sweep, `bar` between steps, `slti`, `seq`, `threads`, `stx`): x at words
; 0..255 (xscan.lds). Up-sweep, d = 1, 2, ..., 128: thread t with (t + 1) mod 2d = 0 adds
; a[t - d] into a[t]. Thread 255 clears a[255]. Down-sweep, d = 128, ..., 1: the same threads
; swap a[t - d] and a[t] and add the old a[t - d] into a[t]. At the end word t holds x[0] + ...
; + x[t - 1] (mod 2^32), word 0 holds 0.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        li   r15, 0
        li   r2, 1               ; d
up:     add  r3, r2, r2
        addi r3, r3, -1          ; 2d - 1
        addi r4, r1, 1
        and  r4, r4, r3          ; (t + 1) mod 2d
        bnz  r4, upj, upj        ; the others wait at the join
        sub  r5, r1, r2
        ld   r6, r5              ; a[t - d]
        ld   r7, r1              ; a[t]
        add  r7, r7, r6
        stx  r7, r1
upj:    join
        bar
        add  r2, r2, r2
        slti r8, r2, 256
        bany r8, up              ; d < 256, the same in every lane
        li   r9, 255
        seq  r10, r1, r9
        bz   r10, cj, cj         ; thread 255 alone
        stx  r15, r1             ; a[255] = 0
cj:     join
        bar
        li   r2, 128
down:   add  r3, r2, r2
        addi r3, r3, -1
        addi r4, r1, 1
        and  r4, r4, r3
        bnz  r4, dj, dj
        sub  r5, r1, r2
        ld   r6, r5              ; a[t - d]
        ld   r7, r1              ; a[t]
        stx  r7, r5              ; a[t - d] = a[t]
        add  r7, r7, r6
        stx  r7, r1              ; a[t] += the old a[t - d]
dj:     join
        bar
        shri r2, r2, 1
        bany r2, down
        exit
