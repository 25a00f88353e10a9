; A loop whose trip count differs per lane: n = lane + warp, r3 = n + (n - 1) + ... + 1.
; Lanes that are done wait at the join; the warp loops while any lane has work (bany).
        lane r1
        warp r2
        add  r1, r1, r2         ; n
        li   r3, 0
loop:   bz   r1, skip, skip     ; lanes with nothing left skip the body
        add  r3, r3, r1
        addi r1, r1, -1
skip:   join
        bany r1, loop
        exit
