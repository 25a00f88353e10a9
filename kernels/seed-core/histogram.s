; Histogram of 256 values into 16 bins of 32-bit counters (seed-core; `atadd` of extension
; `atomic`, base + offset addressing, `threads`, `bar`): x at words 0..255 (histogram.lds),
; each 0..15. Each warp counts its 32 values into its own 16 counters h[warp][b] at word
; 512 + warp x 16 + b with one `atadd`: its lanes that land on one counter add in lane order,
; so no count is lost. Past `bar` threads 0..15 of warp 0 add the 8 warps' counters of bin t
; and store the total at 768 + t.
        warp r1
        threads r2
        mul  r12, r1, r2
        lane r3
        add  r12, r12, r3       ; t
        ld   r4, r12            ; x[t]
        shli r5, r1, 4
        add  r5, r5, r4
        addi r5, r5, 512        ; &h[warp][x[t]]
        li   r6, 1
        atadd r7, r6, r5        ; h[warp][x[t]] += 1 (r7: the count before)
        bar                     ; every warp's counters are final
        slti r9, r12, 16        ; t < 16
        bz   r9, done, done     ; threads 16 and up have nothing to add
        ld   r8, 512(r12)       ; h[0][t]
        ld   r10, 528(r12)
        add  r8, r8, r10
        ld   r10, 544(r12)
        add  r8, r8, r10
        ld   r10, 560(r12)
        add  r8, r8, r10
        ld   r10, 576(r12)
        add  r8, r8, r10
        ld   r10, 592(r12)
        add  r8, r8, r10
        ld   r10, 608(r12)
        add  r8, r8, r10
        ld   r10, 624(r12)      ; h[7][t]
        add  r8, r8, r10
        stx  r8, 768(r12)       ; total of bin t at word 768 + t
done:   join
        exit
