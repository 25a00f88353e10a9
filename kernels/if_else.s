; If/else that diverges per lane: odd lanes r4 = 200 - lane, even lanes r4 = 100 + lane,
; then every lane r5 = r4 + 1 after the reconvergence point.
        lane r2
        andi r3, r2, 1          ; odd lane?
        bnz  r3, odd, end       ; odd lanes go to `odd`, even lanes fall through
        li   r4, 100
        add  r4, r4, r2
        jmp  end
odd:    li   r4, 200
        sub  r4, r4, r2
end:    join
        addi r5, r4, 1
        exit
