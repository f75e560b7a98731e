// The GEMM the library calls: gemm is the kernel table's (the widest instruction set this CPU
// runs, kernels/table.hpp), gemm_batched spreads many same-shaped products over the threads.
// Leaves out: the blocking and the micro-kernel (gemm_kernel.hpp).
#include "gemm.hpp"
#include <algorithm>
#include "parallel.hpp"
#include "pg/threads.hpp"
#include "table.hpp"

namespace pg::kernels {

void gemm(bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B,
          size_t ldb, float* C, size_t ldc, bool accumulate) {
    active().gemm(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

void gemm_batched(size_t batch, bool trans_a, bool trans_b, size_t M, size_t N, size_t K, const float* A, size_t lda,
                  size_t a_stride, const float* B, size_t ldb, size_t b_stride, float* C, size_t ldc, size_t c_stride,
                  bool accumulate) {
    auto product = [&](size_t i, bool add) {
        gemm(trans_a, trans_b, M, N, K, A + i * a_stride, lda, B + i * b_stride, ldb, C + i * c_stride, ldc, add);
    };
    size_t work = M * N * K;
    size_t tasks = std::min({num_threads() * kTasksPerThread, batch, batch * work / kMinWorkPerTask});
    // One shared C, products big enough for gemm to split, or too little work: one product at a time.
    if (c_stride == 0 || work / kMinWorkPerTask >= 2 || tasks <= 1 || num_threads() == 1) {
        for (size_t i = 0; i < batch; ++i) product(i, accumulate || (c_stride == 0 && i > 0));
        return;
    }
    parallel_for(tasks, [&](size_t t) {  // a run of whole products per task; gemm inside runs serially
        for (size_t i = batch * t / tasks; i < batch * (t + 1) / tasks; ++i) product(i, accumulate);
    });
}

}  // namespace pg::kernels
