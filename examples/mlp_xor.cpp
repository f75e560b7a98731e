// An MLP learns XOR with Adam: 2 inputs -> 8 tanh units -> 2 class logits, cross-entropy loss.
// Prints the falling loss; exits with 1 unless the final loss is below 0.05 (ctest runs it).
#include <cstdio>
#include <pg/pg.hpp>

struct MLP : pg::nn::Module {
    pg::nn::Linear hidden, out;
    explicit MLP(pg::Generator& gen) : hidden(2, 8, true, gen), out(8, 2, true, gen) {
        register_module("hidden", hidden);
        register_module("out", out);
    }
    pg::Tensor forward(const pg::Tensor& x) { return out.forward(pg::tanh(hidden.forward(x))); }  // (N,2) -> (N,2)
};

int main() {
    pg::Tensor x = pg::tensor({{0.f, 0.f}, {0.f, 1.f}, {1.f, 0.f}, {1.f, 1.f}});
    pg::Tensor y = pg::tensor({0.f, 1.f, 1.f, 0.f});  // x0 XOR x1, as class ids

    pg::Generator gen(42);
    MLP model(gen);
    pg::optim::AdamOptions options;
    options.lr = 0.05f;
    pg::optim::Adam adam(model.parameters(), options);
    std::printf("an MLP with %zu parameters learns XOR\n", model.num_parameters());

    float loss_value = 0.f;
    for (int step = 0; step <= 300; ++step) {
        adam.zero_grad();
        pg::Tensor loss = pg::cross_entropy(model.forward(x), y);
        loss.backward();
        adam.step();
        loss_value = loss.item();
        if (step % 25 == 0) std::printf("step %3d  loss %.5f\n", step, loss_value);
    }

    pg::Tensor p = pg::softmax(model.forward(x), -1);  // (4,2): column 1 is P(x0 XOR x1 = 1)
    for (size_t i = 0; i < 4; ++i)
        std::printf("%g XOR %g -> P(1) = %.3f\n", x.data()(i, 0), x.data()(i, 1), p.data()(i, 1));
    if (loss_value >= 0.05f) {
        std::printf("FAILED: final loss %.5f is not below 0.05\n", loss_value);
        return 1;
    }
    return 0;
}
