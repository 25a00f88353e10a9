; A 4-deep if/else tree (seed-core; 15 divergent branches nested to the stack's depth of 8,
; `ori`, `xori`, `srai`, `mul`, `threads`, `stx` base + offset; written by gen.py): v at words 0..255, each 0
; to 255 (if_tree.lds). Thread t starts from acc = v and at each level, on bit 3, 2, 1 and 0 of
; v, takes one of two branches: acc + 1000 or acc - 7; acc << 1 or acc xor 0x55; acc x 3 or acc
; + 100; acc or 0x100 or acc >> 1 (arithmetic). acc goes to word 256 + t.
        warp r1
        threads r2
        mul  r1, r1, r2
        lane r3
        add  r1, r1, r3          ; t
        ld   r4, r1              ; v
        mov  r5, r4              ; acc
        li   r7, 3
        andi r6, r4, 8
        bnz  r6, then1, join1
        addi r5, r5, -7
        andi r6, r4, 4
        bnz  r6, then2, join2
        xori r5, r5, 0x55
        andi r6, r4, 2
        bnz  r6, then3, join3
        addi r5, r5, 100
        andi r6, r4, 1
        bnz  r6, then4, join4
        srai r5, r5, 1
        jmp  join4
then4:  ori  r5, r5, 0x100
join4:  join
        jmp  join3
then3:  mul  r5, r5, r7
        andi r6, r4, 1
        bnz  r6, then5, join5
        srai r5, r5, 1
        jmp  join5
then5:  ori  r5, r5, 0x100
join5:  join
join3:  join
        jmp  join2
then2:  shli r5, r5, 1
        andi r6, r4, 2
        bnz  r6, then6, join6
        addi r5, r5, 100
        andi r6, r4, 1
        bnz  r6, then7, join7
        srai r5, r5, 1
        jmp  join7
then7:  ori  r5, r5, 0x100
join7:  join
        jmp  join6
then6:  mul  r5, r5, r7
        andi r6, r4, 1
        bnz  r6, then8, join8
        srai r5, r5, 1
        jmp  join8
then8:  ori  r5, r5, 0x100
join8:  join
join6:  join
join2:  join
        jmp  join1
then1:  addi r5, r5, 1000
        andi r6, r4, 4
        bnz  r6, then9, join9
        xori r5, r5, 0x55
        andi r6, r4, 2
        bnz  r6, then10, join10
        addi r5, r5, 100
        andi r6, r4, 1
        bnz  r6, then11, join11
        srai r5, r5, 1
        jmp  join11
then11: ori  r5, r5, 0x100
join11: join
        jmp  join10
then10: mul  r5, r5, r7
        andi r6, r4, 1
        bnz  r6, then12, join12
        srai r5, r5, 1
        jmp  join12
then12: ori  r5, r5, 0x100
join12: join
join10: join
        jmp  join9
then9:  shli r5, r5, 1
        andi r6, r4, 2
        bnz  r6, then13, join13
        addi r5, r5, 100
        andi r6, r4, 1
        bnz  r6, then14, join14
        srai r5, r5, 1
        jmp  join14
then14: ori  r5, r5, 0x100
join14: join
        jmp  join13
then13: mul  r5, r5, r7
        andi r6, r4, 1
        bnz  r6, then15, join15
        srai r5, r5, 1
        jmp  join15
then15: ori  r5, r5, 0x100
join15: join
join13: join
join9:  join
join1:  join
        stx  r5, 256(r1)
        exit
