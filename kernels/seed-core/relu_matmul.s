; 8 x 8 signed matrix product with ReLU, C = max(A x B, 0) (seed-core; `mul`, `max`, `slti`,
; `threads`, `stx` base + offset): A at words 0..63 and B at 64..127, row by row, 32-bit signed values, some
; negative (relu_matmul.lds). Thread t < 64 = warp x threads + lane computes C[i][j] (i = t / 8,
; j = t mod 8) into word 128 + t; the other threads exit.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        li   r15, 0
        slti r6, r1, 64
        bz   r6, quit, j0        ; threads 64 and up leave
        shri r7, r1, 3           ; i
        andi r8, r1, 7           ; j
        shli r9, r7, 3           ; &A[i][0]
        addi r10, r8, 64         ; &B[0][j]
        li   r11, 0              ; the sum
        li   r12, 8              ; k left
dot:    ld   r13, r9
        ld   r14, r10
        mul  r13, r13, r14
        add  r11, r11, r13
        addi r9, r9, 1
        addi r10, r10, 8
        addi r12, r12, -1
        bany r12, dot
        max  r11, r11, r15       ; ReLU
        stx  r11, 128(r1)
        jmp  j0
quit:   exit
j0:     join
        exit
