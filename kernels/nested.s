; Nested divergence to the SIMT stack's depth (4 entries: two per level): lanes split on bit 0
; of the lane id, then on bit 1. r4 = 11 (lane 0, and 4 in wider warps), 21 (2, 6), 31 (1, 5),
; 41 (3, 7).
        lane r1
        andi r2, r1, 1
        andi r3, r1, 2
        li   r4, 0
        bnz  r2, odd, end1
        bnz  r3, even_hi, end2  ; even lanes
        li   r4, 10
        jmp  end2
even_hi: li  r4, 20
end2:   join
        jmp  end1
odd:    bnz  r3, odd_hi, end3   ; odd lanes
        li   r4, 30
        jmp  end3
odd_hi: li   r4, 40
end3:   join
end1:   join
        addi r4, r4, 1
        exit
