// The matrix multiply of the kernel table, written once for any instruction set: C (M,N) = op(A) @
// op(B), or += with accumulate (kernels/gemm.hpp). Blocks the problem for the caches, packs op(B) (and
// op(A) unless C is narrow) into contiguous micro-panels, undoing the transposes while packing, and
// multiplies them with a register-blocked micro-kernel of Arch's batches; large products are split
// over threads by rows or columns of C, each element computed by one thread in one k order.
// Included only by the table_*.cpp files (see vector_kernels.hpp for why it is all in an unnamed
// namespace). Leaves out: alpha/beta scaling.
#pragma once
#include <cstddef>
#include <cstring>
#include <xsimd/xsimd.hpp>
#include "gemm.hpp"
#include "parallel.hpp"
#include "pg/threads.hpp"
#include "table.hpp"

namespace pg::kernels {
namespace {

// Plain loops instead of <algorithm>'s: a standard template instantiated here, compiled with this
// file's instruction set, could be the copy the linker keeps for every other file too.
inline size_t smaller(size_t a, size_t b) { return a < b ? a : b; }
inline void copy_floats(const float* src, size_t n, float* dst) { std::memcpy(dst, src, n * sizeof(float)); }
inline void zero_floats(float* begin, float* end) {
    if (end > begin) std::memset(begin, 0, static_cast<size_t>(end - begin) * sizeof(float));
}

// A or B as the caller stored it (row stride ld), and whether the product uses its transpose.
struct Operand {
    const float* data;
    size_t ld;
    bool trans;
    const float* stored(size_t row, size_t col) const { return data + row * ld + col; }
};

// Where the micro-kernel reads a block of op(A): the MR-row panel that starts at block row ir
// holds value (r, k) at start[ir * panel_step + r * row_step + k * k_step]. Either the packed copy
// (see pack_a) or A itself, read in place.
struct ABlock {
    const float* start;
    size_t panel_step, row_step, k_step;
};

template <class Arch>
struct GemmKernel {
    using Vec = xsimd::batch<float, Arch>;
    static constexpr size_t W = Vec::size;  // floats per SIMD register: 16 (AVX-512), 8 (AVX2), 4 (SSE2, NEON)

    // The micro-tile of C kept in registers: MR rows by NR = NV*W columns. MR*NV accumulators plus
    // NV vectors of B and one broadcast of A must fit the register file (32 with AVX-512, else 16).
    static constexpr size_t NV = 2;
    static constexpr size_t NR = NV * W;
    static constexpr size_t MR = W == 16 ? 12 : 6;

    // Cache blocks: a KC x NR micro-panel of B stays in L1 while the MC x KC block of A streams from
    // L2, and the KC x NC panel of B is reused from L3 by every block of A.
    static constexpr size_t KC = 256;
    static constexpr size_t MC = MR * 16;
    static constexpr size_t NC = NR * 64;

    // Up to this many columns of C, panels of A are read in place rather than packed (see multiply_rows).
    static constexpr size_t MAX_COLS_FOR_A_IN_PLACE = 128;
    static constexpr size_t PREFETCH_K_AHEAD = 8;   // see micro_kernel

    static constexpr size_t MIN_WORK_PER_TASK = kMinWorkPerTask, TASKS_PER_THREAD = kTasksPerThread;   // gemm.hpp

    // Packs op(A)[i0 : i0+mc, k0 : k0+kc] as micro-panels of MR rows, each MR*kc floats, rows past mc
    // zero. The layout follows A's storage so that packing is a straight copy: when A is stored (M,K),
    // a panel is row-major (value (r, k) at r*kc + k); when stored (K,M), it is k-major (at k*MR + r).
    static void pack_a(const Operand& a, size_t i0, size_t mc, size_t k0, size_t kc, float* dst) {
        if (!a.trans) {
            for (size_t p = 0; p < mc; p += MR, dst += MR * kc) {
                size_t rows = smaller(MR, mc - p);
                for (size_t r = 0; r < rows; ++r) copy_floats(a.stored(i0 + p + r, k0), kc, dst + r * kc);
                zero_floats(dst + rows * kc, dst + MR * kc);
            }
            return;
        }
        for (size_t p = 0; p < mc; p += MR, dst += MR * kc) {  // A stored (K,M): MR values per k are contiguous
            size_t rows = smaller(MR, mc - p);
            for (size_t k = 0; k < kc; ++k) {
                const float* src = a.stored(k0 + k, i0 + p);
                float* out = dst + k * MR;
                if (rows == MR) {
                    std::memcpy(out, src, MR * sizeof(float));  // fixed size: a few vector moves
                } else {
                    copy_floats(src, rows, out);
                    zero_floats(out + rows, out + MR);
                }
            }
        }
    }

    // Packs op(B)[k0 : k0+kc, j0 : j0+nc] as micro-panels of NR columns, each k-major: panel p holds,
    // for each k, the NR values op(B)[k0 + k, j0 + p*NR + c], c = 0..NR-1, with zeros past the last column.
    static void pack_b(const Operand& b, size_t k0, size_t kc, size_t j0, size_t nc, float* dst) {
        if (!b.trans) {
            for (size_t k = 0; k < kc; ++k) {  // one stored row of B fills row k of every panel
                const float* src = b.stored(k0 + k, j0);
                for (size_t p = 0; p < nc; p += NR) {
                    float* out = dst + p * kc + k * NR;
                    size_t cols = smaller(NR, nc - p);
                    if (cols == NR) {
                        for (size_t v = 0; v < NV; ++v) Vec::load_unaligned(src + p + v * W).store_aligned(out + v * W);
                    } else {
                        for (size_t c = 0; c < cols; ++c) out[c] = src[p + c];
                        for (size_t c = cols; c < NR; ++c) out[c] = 0.f;
                    }
                }
            }
            return;
        }
        for (size_t p = 0; p < nc; p += NR, dst += NR * kc) {  // B stored (N,K): each row lands every NR floats
            size_t cols = smaller(NR, nc - p);
            for (size_t c = 0; c < cols; ++c) {
                const float* src = b.stored(j0 + p + c, k0);
                for (size_t k = 0; k < kc; ++k) dst[k * NR + c] = src[k];
            }
            for (size_t c = cols; c < NR; ++c)
                for (size_t k = 0; k < kc; ++k) dst[k * NR + c] = 0.f;
        }
    }

    static ABlock packed_block(bool a_trans, size_t kc, const float* a_packed) {
        return a_trans ? ABlock{a_packed, kc, 1, MR} : ABlock{a_packed, kc, kc, 1};
    }

    static ABlock in_place_block(const Operand& a, size_t i0, size_t k0) {
        return a.trans ? ABlock{a.stored(k0, i0), 1, 1, a.ld} : ABlock{a.stored(i0, k0), a.ld, a.ld, 1};
    }

    // The register tile: acc (MR,NR) = sum over k of column k of an A panel (MR values, value (r, k) at
    // a_panel[r * row_step + k * k_step]) times row k of a B panel (NR values at b_panel[k * NR]); then
    // the C tile (MR rows, row stride ldc) = acc, or += acc when add.
    static void micro_kernel(size_t kc, const float* a_panel, size_t row_step, size_t k_step, const float* b_panel,
                             float* c, size_t ldc, bool add) {
        for (size_t r = 0; r < MR; ++r) {  // the C tile arrives in cache while the k loop runs
            __builtin_prefetch(c + r * ldc, 1);
            __builtin_prefetch(c + r * ldc + NR - 1, 1);
        }
        Vec acc[MR][NV];
        for (size_t r = 0; r < MR; ++r)
            for (size_t v = 0; v < NV; ++v) acc[r][v] = Vec(0.f);
        for (size_t k = 0; k < kc; ++k, a_panel += k_step, b_panel += NR) {
            // A read in place across its rows (a weight gradient's gy^T): each k is a new row of the
            // stored matrix, too far apart for the hardware to prefetch, so ask for one 8 rows ahead
            if (k_step > 1) __builtin_prefetch(a_panel + PREFETCH_K_AHEAD * k_step);
            Vec b[NV];
            for (size_t v = 0; v < NV; ++v) b[v] = Vec::load_aligned(b_panel + v * W);
            for (size_t r = 0; r < MR; ++r) {
                Vec a(a_panel[r * row_step]);
                for (size_t v = 0; v < NV; ++v) acc[r][v] = xsimd::fma(a, b[v], acc[r][v]);
            }
        }
        for (size_t r = 0; r < MR; ++r)
            for (size_t v = 0; v < NV; ++v) {
                float* out = c + r * ldc + v * W;
                Vec sum = add ? Vec::load_unaligned(out) + acc[r][v] : acc[r][v];
                sum.store_unaligned(out);
            }
    }

    // The micro-kernel compiled twice, for panels read along k (k_step 1) and across rows (row_step 1).
    static void micro_kernel_for(const ABlock& a, size_t ir, size_t kc, const float* b_panel, float* c, size_t ldc, bool add) {
        const float* a_panel = a.start + ir * a.panel_step;
        if (a.k_step == 1)
            micro_kernel(kc, a_panel, a.row_step, 1, b_panel, c, ldc, add);
        else
            micro_kernel(kc, a_panel, 1, a.k_step, b_panel, c, ldc, add);
    }

    // C[0:mc, 0:nc] (+)= a block of op(A) (mc x kc) @ packed B panel (kc x nc). Edge tiles go through a
    // full-size scratch tile, so every element of C sees the same arithmetic wherever it lies.
    static void macro_kernel(const ABlock& a, size_t mc, size_t nc, size_t kc, const float* b_packed, float* c, size_t ldc,
                      bool add) {
        alignas(64) float edge[MR * NR];
        for (size_t jr = 0; jr < nc; jr += NR) {
            size_t cols = smaller(NR, nc - jr);
            for (size_t ir = 0; ir < mc; ir += MR) {
                size_t rows = smaller(MR, mc - ir);
                float* tile = c + ir * ldc + jr;
                if (rows == MR && cols == NR) {
                    micro_kernel_for(a, ir, kc, b_packed + jr * kc, tile, ldc, add);
                    continue;
                }
                micro_kernel_for(a, ir, kc, b_packed + jr * kc, edge, NR, false);
                for (size_t r = 0; r < rows; ++r)
                    for (size_t j = 0; j < cols; ++j)
                        tile[r * ldc + j] = add ? tile[r * ldc + j] + edge[r * NR + j] : edge[r * NR + j];
            }
        }
    }

    // C[m0:m1, 0:nc] (+)= op(A)[m0:m1, pc:pc+kc] @ a packed block of B (kc x nc), MC rows of A at a
    // time. When C is narrow, each value of A meets few columns of B and copying it costs more than it
    // saves, so whole MR-row panels of A are read in place and only a last partial panel is packed
    // (zero-padded).
    static void multiply_rows(const Operand& a, size_t m0, size_t m1, size_t pc, size_t kc, size_t nc, const float* b_packed,
                       float* C, size_t ldc, bool add, bool a_in_place) {
        float* a_packed = scratch(0, MC * KC);
        for (size_t ic = m0; ic < m1; ic += MC) {
            size_t mc = smaller(MC, m1 - ic);
            size_t in_place = a_in_place ? mc / MR * MR : 0;
            if (in_place > 0) macro_kernel(in_place_block(a, ic, pc), in_place, nc, kc, b_packed, C + ic * ldc, ldc, add);
            if (in_place < mc) {
                pack_a(a, ic + in_place, mc - in_place, pc, kc, a_packed);
                macro_kernel(packed_block(a.trans, kc, a_packed), mc - in_place, nc, kc, b_packed,
                             C + (ic + in_place) * ldc, ldc, add);
            }
        }
    }

    // One thread's share: C[m0:m1, n0:n1] of the whole product, blocked NC, then KC, then MC.
    static void gemm_block(const Operand& a, const Operand& b, size_t m0, size_t m1, size_t n0, size_t n1, size_t K, float* C,
                    size_t ldc, bool accumulate) {
        float* b_packed = scratch(1, KC * NC);
        bool a_in_place = n1 - n0 <= MAX_COLS_FOR_A_IN_PLACE;
        for (size_t jc = n0; jc < n1; jc += NC) {
            size_t nc = smaller(NC, n1 - jc);
            for (size_t pc = 0; pc < K; pc += KC) {
                size_t kc = smaller(KC, K - pc);
                pack_b(b, pc, kc, jc, nc, b_packed);
                multiply_rows(a, m0, m1, pc, kc, nc, b_packed, C + jc, ldc, accumulate || pc > 0, a_in_place);
            }
        }
    }

    // The whole product: the table's gemm.
    static void run(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                    const float* B, size_t ldb, float* C, size_t ldc, bool accumulate) {
        if (M == 0 || N == 0) return;
        if (K == 0) {
            if (!accumulate)
                for (size_t i = 0; i < M; ++i) zero_floats(C + i * ldc, C + i * ldc + N);
            return;
        }
        Operand a{A, lda, trans_a}, b{B, ldb, trans_b};
        // Split C into bands of whole micro-tiles along its longer side, one band per task. Each element
        // is still computed by one thread in the same k order, so the result does not depend on threads.
        bool split_rows = M >= N;
        size_t tile = split_rows ? MR : NR, length = split_rows ? M : N;
        size_t tiles = (length + tile - 1) / tile;
        size_t by_work = M * N * K / MIN_WORK_PER_TASK;
        size_t tasks = smaller(smaller(num_threads() * TASKS_PER_THREAD, tiles), by_work);
        if (tasks <= 1 || num_threads() == 1) {
            gemm_block(a, b, 0, M, 0, N, K, C, ldc, accumulate);
            return;
        }
        parallel_for(tasks, [&](size_t t) {
            size_t first = tiles * t / tasks * tile, last = smaller(tiles * (t + 1) / tasks * tile, length);
            if (split_rows)
                gemm_block(a, b, first, last, 0, N, K, C, ldc, accumulate);
            else
                gemm_block(a, b, 0, M, first, last, K, C, ldc, accumulate);
        });
    }
};

}  // namespace
}  // namespace pg::kernels
