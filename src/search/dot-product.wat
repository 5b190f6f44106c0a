;; Dot products of one query with many vectors, four lanes at a time (WebAssembly SIMD, f32x4).
;; Compiled into src/search/dot-product-wasm.ts by `node scripts/build-wasm.ts`; a test checks the two agree.
;;
;; scores(vectors, n, dim, query, out): out[i] = sum over k of vectors[i*dim + k] * query[k], for i in [0, n).
;; All arguments are byte offsets into memory except n and dim; dim is a multiple of 8 (callers pad with zeros).
(module
  (memory (export "memory") 1)
  (func (export "scores")
    (param $vectors i32) (param $n i32) (param $dim i32) (param $query i32) (param $out i32)
    (local $row i32) (local $end i32) (local $bytes i32) (local $p i32) (local $q i32)
    (local $a v128) (local $b v128)
    (local.set $bytes (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $row (local.get $vectors))
    (local.set $end (i32.add (local.get $vectors) (i32.mul (local.get $n) (local.get $bytes))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $row) (local.get $end)))
        ;; Two accumulators: independent adds the CPU overlaps.
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $b (v128.const i32x4 0 0 0 0))
        (local.set $p (local.get $row))
        (local.set $q (local.get $query))
        (block $row_done
          (loop $lanes
            (br_if $row_done (i32.ge_u (local.get $p) (i32.add (local.get $row) (local.get $bytes))))
            (local.set $a
              (f32x4.add (local.get $a) (f32x4.mul (v128.load (local.get $p)) (v128.load (local.get $q)))))
            (local.set $b
              (f32x4.add (local.get $b)
                (f32x4.mul (v128.load offset=16 (local.get $p)) (v128.load offset=16 (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $lanes)))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $row (i32.add (local.get $row) (local.get $bytes)))
        (br $rows)))))
