; Early exit: per-lane `exit`, as CUDA's `return`. Thread i = warp x 4 + lane (warps of 4 lanes).
; Threads with i >= 10 store 255 at word 64 + i and exit inside the `if`; the others go on after
; the `join` and store 2 i + 1 there. Out: words 64..73 = 1, 3, ..., 19 and words 74..79 = 255;
; r5 holds the value each thread stored. Warp 2 splits (threads 10 and 11 exit, 8 and 9 go on);
; every thread of warp 3 exits, so its `join` entry has no lane left.
        warp r1
        shli r1, r1, 2
        lane r2
        add  r1, r1, r2         ; i
        li   r3, 10
        slt  r4, r1, r3         ; i < 10
        bz   r4, late, done     ; threads with i >= 10 go to `late`
        jmp  done
late:   li   r5, 255
        st   r5, 16, 1          ; word 64 + i
        exit                    ; these threads end here
done:   join
        add  r5, r1, r1
        addi r5, r5, 1          ; 2 i + 1
        st   r5, 16, 1          ; word 64 + i
        exit
