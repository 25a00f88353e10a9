; Matrix multiply C = A x B of 16 x 16 matrices of 32-bit values, row-major (seed-core; uses
; `mul`): A at words 0..255, B at 256..511 (matmul.lds), C at 512..767. Thread t = warp x 32 +
; lane computes C[i][j], i = t / 16, j = t mod 16: r6 = A[i][0] B[0][j] + ... + A[i][15] B[15][j]
; (mod 2^32), stored at word 512 + t.
        warp r1
        shli r1, r1, 5
        lane r2
        add  r1, r1, r2         ; t
        shri r3, r1, 4
        shli r3, r3, 4          ; &A[i][0]
        andi r4, r1, 15
        addi r4, r4, 256        ; &B[0][j]
        li   r5, 16             ; k left
loop:   ld   r7, r3             ; A[i][k]
        ld   r8, r4             ; B[k][j]
        mul  r7, r7, r8
        add  r6, r6, r7
        addi r3, r3, 1
        addi r4, r4, 16
        addi r5, r5, -1
        bany r5, loop           ; uniform: 16 turns in every lane
        st   r6, 64, 1          ; C[t] = word 512 + t
        exit
