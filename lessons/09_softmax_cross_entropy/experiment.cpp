// Lesson 09 experiment: softmax, log-softmax and cross-entropy on logits [2, 1, 0.1] with target 0,
// by hand and with the library; the gradient p - y, and where it comes from (softmax's Jacobian);
// a batch with an ignored row; and the large and small logits that break the naive formulas.
#include <cmath>
#include <iostream>
#include "lesson.hpp"

static void run() {
    lesson::section(lesson::tr("logits z = [2, 1, 0.1], target class 0", "logits z = [2, 1, 0.1]，目标类别 0"));
    pg::Tensor z = pg::tensor({2.f, 1.f, 0.1f});
    pg::Tensor e = pg::exp(z);
    lesson::show("exp(z)", e);
    lesson::show(lesson::tr("sum of exp(z)", "exp(z) 之和"), pg::sum(e));
    pg::Tensor p = pg::softmax(z, -1);
    lesson::show("p = softmax(z) = exp(z) / sum", p);
    double logsumexp = std::log(pg::sum(e).item());
    lesson::show(lesson::tr("log of the sum (logsumexp)", "和的对数（logsumexp）"), logsumexp);
    pg::Tensor logp = pg::log_softmax(z, -1);
    lesson::show("log_softmax(z) = z - logsumexp", logp);
    lesson::confirm("log_softmax", logp, z - static_cast<float>(logsumexp), 1e-6, "z - logsumexp");
    double loss_by_hand = -logp.ptr()[0];
    lesson::show(lesson::tr("loss = -log p[target] = logsumexp - z[target]", "损失 = -log p[target] = logsumexp - z[target]"), loss_by_hand);

    lesson::section(lesson::tr("the library: pg::cross_entropy on logits (1,3), targets (1)", "库：pg::cross_entropy，logits (1,3)，目标 (1)"));
    pg::Tensor logits = pg::reshape(z, {1, 3}).detach().requires_grad_();
    pg::Tensor targets = pg::tensor({0.f});
    pg::Tensor loss = pg::cross_entropy(logits, targets);
    lesson::show("pg::cross_entropy", loss);
    lesson::confirm("loss", loss.item(), loss_by_hand, 1e-6, lesson::tr("-log p[0] by hand", "手算的 -log p[0]"));
    loss.backward();
    lesson::show(lesson::tr("dloss/dlogits from backward", "backward 给出的 dloss/dlogits"), logits.grad());
    pg::Tensor onehot = pg::tensor({1.f, 0.f, 0.f});
    lesson::show("p - y, y = one-hot(0)", p - onehot);
    lesson::confirm("dloss/dlogits", pg::reshape(logits.grad(), {3}), p - onehot, 1e-6, "p - y");

    lesson::section(lesson::tr("where p - y comes from: the chain through softmax", "p - y 从哪里来：经过 softmax 的链式法则"));
    // J[i][j] = dp_i/dz_j = p_i ([i == j] - p_j)
    std::vector<float> jac(9);
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) jac[i * 3 + j] = p.ptr()[i] * ((i == j ? 1.f : 0.f) - p.ptr()[j]);
    pg::Tensor J = pg::tensor(jac, {3, 3});
    lesson::show(lesson::tr("softmax's Jacobian J[i][j] = p_i ([i == j] - p_j)", "softmax 的雅可比矩阵 J[i][j] = p_i ([i == j] - p_j)"), J);
    pg::Tensor dloss_dp = pg::tensor({-1.f / p.ptr()[0], 0.f, 0.f});
    lesson::show(lesson::tr("dloss/dp = -y / p: only the target's entry, -1 / p[0]", "dloss/dp = -y / p：只有目标那一项，-1 / p[0]"), dloss_dp);
    pg::Tensor chained = pg::reshape(pg::matmul(pg::reshape(dloss_dp, {1, 3}), J), {3});
    lesson::show("dloss/dz = dloss/dp @ J", chained);
    lesson::confirm("the chain", chained, p - onehot, 1e-6, lesson::tr("p - y: the 1/p[0] cancels the p[0] in J's row 0", "p - y：1/p[0] 约掉了 J 第 0 行里的 p[0]"));

    lesson::section(lesson::tr("the same loss composed from ops: -sum(log_softmax(z) * y)", "用算子拼出的同一个损失：-sum(log_softmax(z) * y)"));
    pg::Tensor z2 = z.detach().requires_grad_();
    pg::Tensor composed = -pg::sum(pg::log_softmax(z2, -1) * onehot);
    composed.backward();
    lesson::show(lesson::tr("composed loss", "拼出来的损失"), composed);
    lesson::show(lesson::tr("its gradient", "它的梯度"), z2.grad());

    lesson::section(lesson::tr("a batch of 3 rows, the last ignored (target -100, the default ignore_index)", "3 行的批次，最后一行被忽略（目标 -100，即默认的 ignore_index）"));
    pg::Tensor batch = pg::tensor({{2.f, 1.f, 0.1f}, {0.5f, 2.5f, -1.f}, {1.f, 1.f, 1.f}}).requires_grad_();
    pg::Tensor batch_targets = pg::tensor({0.f, 1.f, -100.f});
    lesson::show("logits", batch, 1);
    lesson::show(lesson::tr("targets", "目标"), batch_targets, 0);
    lesson::show(lesson::tr("log_softmax of each row", "每一行的 log_softmax"), pg::log_softmax(batch, -1));
    pg::Tensor batch_loss = pg::cross_entropy(batch, batch_targets);
    lesson::show(lesson::tr("loss: the mean over the 2 rows that count", "损失：计入的 2 行的平均"), batch_loss);
    pg::Tensor row_logp = pg::log_softmax(batch, -1);
    lesson::confirm("batch loss", batch_loss.item(), -(row_logp.ptr()[0] + row_logp.ptr()[4]) / 2, 1e-6,
                    "-(logp[0][0] + logp[1][1]) / 2");
    batch_loss.backward();
    lesson::show(lesson::tr("dloss/dlogits: (p - y) / 2 per row; the ignored row gets 0", "dloss/dlogits：每行 (p - y) / 2；被忽略的行得到 0"), batch.grad());

    lesson::section(lesson::tr("large logits [1000, 999, 998]: exp overflows float32", "极大的 logits [1000, 999, 998]：exp 在 float32 里溢出"));
    float big = std::exp(1000.f);
    std::cout << lesson::tr("exp(1000) in float = ", "float 里的 exp(1000) = ") << lesson::num(big)
              << lesson::tr(", so exp / sum = inf / inf = ", "，所以 exp / sum = inf / inf = ") << lesson::num(big / (big + big))
              << "\n";
    pg::Tensor large = pg::tensor({1000.f, 999.f, 998.f});
    lesson::show(lesson::tr("log_softmax, which subtracts the max 1000 first", "log_softmax，它先减去最大值 1000"), pg::log_softmax(large, -1));
    float s = static_cast<float>(std::log(1 + std::exp(-1.0) + std::exp(-2.0)));
    lesson::confirm("log_softmax(large)", pg::log_softmax(large, -1), pg::tensor({-s, -1 - s, -2 - s}), 1e-5,
                    "[0, -1, -2] - log(1 + exp(-1) + exp(-2))");

    lesson::section(lesson::tr("a very unlikely target: logits [0, -200], target 1", "一个极不可能的目标：logits [0, -200]，目标 1"));
    pg::Tensor tiny = pg::tensor({0.f, -200.f});
    pg::Tensor tiny_p = pg::softmax(tiny, -1);
    lesson::show(lesson::tr("softmax: exp(-200) underflows to 0 in float32", "softmax：exp(-200) 在 float32 里下溢为 0"), tiny_p);
    std::cout << "log(softmax)[1] = " << lesson::num(std::log(tiny_p.ptr()[1])) << lesson::tr(": an infinite loss", "：损失无穷大")
              << "\n";
    lesson::show("log_softmax[1] = -200 - log(1 + exp(-200))", pg::log_softmax(tiny, -1));
    pg::Tensor unlikely = pg::cross_entropy(pg::reshape(tiny, {1, 2}), pg::tensor({1.f}));
    lesson::show(lesson::tr("pg::cross_entropy: a large loss, still finite", "pg::cross_entropy：损失很大，但仍然有限"), unlikely, 1);

    lesson::section(lesson::tr("guessing: uniform logits over C = 3 classes give loss log 3", "瞎猜：C = 3 个类别的 logits 全相等，损失是 log 3"));
    pg::Tensor flat = pg::cross_entropy(pg::zeros({1, 3}), pg::tensor({2.f}));
    lesson::show(lesson::tr("cross_entropy of [0, 0, 0]", "[0, 0, 0] 的 cross_entropy"), flat);
    lesson::confirm("uniform loss", flat.item(), std::log(3.0), 1e-6, "log 3");
}

int main() { return lesson::run_experiment(run); }
