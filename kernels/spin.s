; Spin: a long uniform loop, for timing the engines (simt-rtl speed --kernels). Every thread adds
; 1 to r3, 100 x 250 times (8-bit values wrap): r3 = 25,000 mod 256 = 168; r1 and r2 count down
; to 0. The loops are `bany` back edges (the whole warp jumps), so no lane diverges.
        li   r1, 100            ; outer turns
outer:  li   r2, 250            ; inner turns
inner:  addi r3, r3, 1
        addi r2, r2, -1
        bany r2, inner
        addi r1, r1, -1
        bany r1, outer
        exit
