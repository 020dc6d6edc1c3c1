#include "nn/snn/spike_net.hpp"

#include <algorithm>
#include <array>

#include "irithyll/core/rng.hpp"
#include "nn/snn/delta_encoder.hpp"
#include "nn/snn/eprop_kernels.hpp"
#include "nn/snn/q14.hpp"

namespace irithyll::nn {

namespace {
constexpr std::uint32_t kMaxHidden = 1024;
constexpr std::size_t words(std::size_t bits) { return (bits + 63) / 64; }

template <class F>
void for_each_bit(std::span<const std::uint64_t> mask, F&& f) {
  for (std::size_t w = 0; w < mask.size(); ++w) {
    std::uint64_t m = mask[w];
    while (m != 0) {
      f(w * 64 + static_cast<std::size_t>(__builtin_ctzll(m)));
      m &= m - 1;
    }
  }
}
}  // namespace

Status SpikeNetConfig::validate() const {
  if (n_input < 1 || n_input > 256) return Status::invalid_argument("spikenet: n_input must be in [1, 256]");
  if (n_hidden < 1 || n_hidden > kMaxHidden) return Status::invalid_argument("spikenet: n_hidden must be in [1, 1024]");
  if (n_output < 1 || n_output > 64) return Status::invalid_argument("spikenet: n_output must be in [1, 64]");
  auto q = [](std::int32_t v, std::int32_t lo, std::int32_t hi) { return v >= lo && v <= hi; };
  if (!q(alpha, 0, q14::kOne) || !q(kappa_out, 0, q14::kOne))
    return Status::invalid_argument("spikenet: alpha and kappa_out must be in [0, 16384] (Q14 of [0, 1])");
  // The e-prop kernel's bounds (eprop_kernels.hpp): doubled Q14 factors must fit int16.
  if (!q(kappa, 1, 16383)) return Status::invalid_argument("spikenet: kappa must be in [1, 16383]");
  if (!q(eta, 0, 16383) || !q(eta_out, 0, 32767) || !q(eta_bias, 0, 32767))
    return Status::invalid_argument("spikenet: eta in [0, 16383], eta_out and eta_bias in [0, 32767]");
  if (!q(threshold, 1, 32767)) return Status::invalid_argument("spikenet: threshold must be in [1, 32767]");
  if (!q(gamma, 0, 16383)) return Status::invalid_argument("spikenet: gamma must be in [0, 16383]");
  if (!q(encoder_threshold, 0, 32767)) return Status::invalid_argument("spikenet: encoder_threshold in [0, 32767]");
  if (!q(init_range, 0, 32767)) return Status::invalid_argument("spikenet: init_range in [0, 32767]");
  if (!q(gate.target_rate, 0, q14::kOne) || !q(gate.rate_shift, 1, 14) || !q(gate.gain, 0, 32767))
    return Status::invalid_argument("spikenet: gate target_rate in [0, 16384], rate_shift in [1, 14], gain in [0, 32767]");
  return Status::ok();
}

SpikeNet::SpikeNet(const SpikeNetConfig& config) : config_(config) {
  const std::size_t h = config.n_hidden, c = n_channels(), o = config.n_output;
  off_w_in_ = 0;
  off_e_in_ = off_w_in_ + c * h;
  off_w_rec_ = off_e_in_ + c * h;
  off_e_rec_ = off_w_rec_ + h * h;
  off_w_out_ = off_e_rec_ + h * h;
  off_b_ = off_w_out_ + o * h;
  off_tr_in_ = off_b_ + h * o;
  off_tr_hid_ = off_tr_in_ + c;
  off_bias_ = off_tr_hid_ + h;
  arena_.assign(off_bias_ + o, 0);
  Xorshift64 rng(config.seed);
  const std::uint64_t r = static_cast<std::uint64_t>(config.init_range);
  auto draw = [&] { return static_cast<std::int16_t>(static_cast<std::int64_t>(rng.next_u64() % (2 * r + 1)) - config.init_range); };
  for (std::size_t i = 0; i < c * h; ++i) arena_[off_w_in_ + i] = draw();
  for (std::size_t i = 0; i < h * h; ++i) arena_[off_w_rec_ + i] = draw();
  for (std::size_t i = 0; i < o * h; ++i) arena_[off_w_out_ + i] = draw();
  for (std::size_t i = 0; i < h * o; ++i) arena_[off_b_ + i] = draw();
  s_.v.assign(h, 0);
  s_.rate.assign(h, static_cast<std::int16_t>(config.gate.target_rate));
  s_.drive.assign(h, 0);
  s_.enc_ref.assign(config.n_input, 0);
  s_.z.assign(h, 0);
  s_.spikes.assign(words(h), 0);
  s_.prev_spikes.assign(words(h), 0);
  s_.enc_spikes.assign(words(c), 0);
  s_.m.assign(o, 0);
}

void SpikeNet::step(State& s, std::span<const std::int16_t> x, std::int16_t* psi) const noexcept {
  const std::size_t h = config_.n_hidden;
  const std::uint64_t magic = q14::surrogate_magic(config_.threshold);
  delta_encode(x, s.enc_ref, s.primed, config_.encoder_threshold, s.enc_spikes);
  std::swap(s.spikes, s.prev_spikes);  // O(1): swaps buffers, no allocation
  std::array<std::int32_t, kMaxHidden> current;
  for (std::size_t j = 0; j < h; ++j) current[j] = s.drive[j];
  const std::int16_t* a = arena_.data();
  for_each_bit(std::span<const std::uint64_t>(s.enc_spikes), [&](std::size_t ch) { accumulate_row(current.data(), a + off_w_in_ + ch * h, h); });
  for_each_bit(std::span<const std::uint64_t>(s.prev_spikes), [&](std::size_t i) { accumulate_row(current.data(), a + off_w_rec_ + i * h, h); });
  std::fill(s.spikes.begin(), s.spikes.end(), 0);
  for (std::size_t j = 0; j < h; ++j) {
    const q14::LifResult r = q14::lif_step(s.v[j], config_.alpha, current[j], config_.threshold);
    s.v[j] = r.v;
    if (psi != nullptr) psi[j] = q14::surrogate_fast(r.pre, config_.threshold, config_.gamma, magic);
    if (r.spike) s.spikes[j >> 6] |= std::uint64_t{1} << (j & 63);
    astrocyte_update(s.rate[j], s.drive[j], r.spike, config_.gate, config_.threshold);
    s.z[j] = q14::sat16(q14::mul(s.z[j], config_.kappa_out) + (r.spike ? q14::kOne - config_.kappa_out : 0));
  }
  for (std::size_t k = 0; k < config_.n_output; ++k) {
    const std::int16_t* wk = a + off_w_out_ + k * h;
    std::int64_t sum = 0;
    for_each_bit(std::span<const std::uint64_t>(s.spikes), [&](std::size_t j) { sum += wk[j]; });
    s.m[k] = q14::sat32(q14::mul64(s.m[k], config_.kappa_out) + q14::mul64(q14::kOne - config_.kappa_out, sum));
  }
}

void SpikeNet::forward(std::span<const std::int16_t> x) noexcept { step(s_, x, nullptr); }

void SpikeNet::forward_into(State& scratch, std::span<const std::int16_t> x) const noexcept {
  // Element-wise copies: vector copy-assignment into equal sizes does not allocate.
  scratch.v = s_.v;
  scratch.rate = s_.rate;
  scratch.drive = s_.drive;
  scratch.enc_ref = s_.enc_ref;
  scratch.z = s_.z;
  scratch.spikes = s_.spikes;
  scratch.prev_spikes = s_.prev_spikes;
  scratch.enc_spikes = s_.enc_spikes;
  scratch.m = s_.m;
  scratch.primed = s_.primed;
  step(scratch, x, nullptr);
}

std::int16_t SpikeNet::output_of(const State& s, std::size_t k) const noexcept {
  return q14::sat16(static_cast<std::int64_t>(s.m[k]) + arena_[off_bias_ + k]);
}

void SpikeNet::train_step(std::span<const std::int16_t> x, std::span<const std::int16_t> target) noexcept {
  const std::size_t h = config_.n_hidden, o = config_.n_output, c = n_channels();
  std::array<std::int16_t, kMaxHidden> psi, learning;
  step(s_, x, psi.data());
  std::array<std::int16_t, 64> err;
  for (std::size_t k = 0; k < o; ++k) err[k] = q14::sat16(static_cast<std::int32_t>(target[k]) - output(k));
  std::int16_t* a = arena_.data();
  for (std::size_t j = 0; j < h; ++j) {
    std::int32_t s = 0;
    for (std::size_t k = 0; k < o; ++k) s += q14::mul(a[off_b_ + j * o + k], err[k]);
    learning[j] = q14::sat16(s);
  }
  // Presynaptic traces see the spikes that fed this step: encoder spikes now, hidden spikes of the previous step.
  for (std::size_t ch = 0; ch < c; ++ch) {
    const bool s = (s_.enc_spikes[ch >> 6] >> (ch & 63)) & 1u;
    std::int16_t& tr = a[off_tr_in_ + ch];
    tr = q14::sat16(q14::mul(tr, config_.alpha) + (s ? q14::kOne : 0));
    eprop_row(a + off_e_in_ + ch * h, a + off_w_in_ + ch * h, psi.data(), learning.data(), h, tr, config_.kappa, config_.eta);
  }
  for (std::size_t i = 0; i < h; ++i) {
    const bool s = (s_.prev_spikes[i >> 6] >> (i & 63)) & 1u;
    std::int16_t& tr = a[off_tr_hid_ + i];
    tr = q14::sat16(q14::mul(tr, config_.alpha) + (s ? q14::kOne : 0));
    eprop_row(a + off_e_rec_ + i * h, a + off_w_rec_ + i * h, psi.data(), learning.data(), h, tr, config_.kappa, config_.eta);
  }
  for (std::size_t k = 0; k < o; ++k) {
    a[off_bias_ + k] = q14::sat16(a[off_bias_ + k] + q14::mul(config_.eta_bias, err[k]));
    std::int16_t* wk = a + off_w_out_ + k * h;
    for (std::size_t j = 0; j < h; ++j)
      wk[j] = q14::sat16(wk[j] + q14::mul(config_.eta_out, q14::sat16(q14::mul(err[k], s_.z[j]))));
  }
}

std::int16_t SpikeNet::output(std::size_t k) const noexcept { return output_of(s_, k); }

std::size_t SpikeNet::hidden_spike_count() const noexcept {
  std::size_t n = 0;
  for (std::uint64_t w : s_.spikes) n += static_cast<std::size_t>(__builtin_popcountll(w));
  return n;
}

void SpikeNet::reset_state() noexcept {
  std::fill(arena_.begin() + static_cast<std::ptrdiff_t>(off_e_in_), arena_.begin() + static_cast<std::ptrdiff_t>(off_w_rec_), 0);
  std::fill(arena_.begin() + static_cast<std::ptrdiff_t>(off_e_rec_), arena_.begin() + static_cast<std::ptrdiff_t>(off_w_out_), 0);
  std::fill(arena_.begin() + static_cast<std::ptrdiff_t>(off_tr_in_), arena_.begin() + static_cast<std::ptrdiff_t>(off_bias_), 0);
  std::fill(s_.v.begin(), s_.v.end(), 0);
  std::fill(s_.rate.begin(), s_.rate.end(), static_cast<std::int16_t>(config_.gate.target_rate));
  std::fill(s_.drive.begin(), s_.drive.end(), 0);
  std::fill(s_.enc_ref.begin(), s_.enc_ref.end(), 0);
  std::fill(s_.z.begin(), s_.z.end(), 0);
  std::fill(s_.spikes.begin(), s_.spikes.end(), 0);
  std::fill(s_.prev_spikes.begin(), s_.prev_spikes.end(), 0);
  std::fill(s_.enc_spikes.begin(), s_.enc_spikes.end(), 0);
  std::fill(s_.m.begin(), s_.m.end(), 0);
  s_.primed = false;
}

std::size_t SpikeNet::state_bytes() const noexcept {
  return (arena_.size() + s_.v.size() + s_.rate.size() + s_.drive.size() + s_.enc_ref.size() + s_.z.size()) * sizeof(std::int16_t) +
         (s_.spikes.size() + s_.prev_spikes.size() + s_.enc_spikes.size()) * sizeof(std::uint64_t) +
         s_.m.size() * sizeof(std::int32_t) + 1;
}

std::size_t SpikeNet::memory_bytes() const noexcept {
  return sizeof(*this) + (arena_.capacity() + s_.v.capacity() + s_.rate.capacity() + s_.drive.capacity() + s_.enc_ref.capacity() + s_.z.capacity()) * 2 +
         (s_.spikes.capacity() + s_.prev_spikes.capacity() + s_.enc_spikes.capacity()) * 8 + s_.m.capacity() * 4;
}

namespace {
void put_i16s(ByteWriter& out, std::span<const std::int16_t> v) {
  out.u64(v.size());
  for (std::int16_t x : v) out.u16(static_cast<std::uint16_t>(x));
}
bool get_i16s(ByteReader& in, std::vector<std::int16_t>& v, const char* what) {
  const std::uint64_t n = in.u64(what);
  if (!in.ok() || n != v.size()) return in.expect(false, what);
  for (auto& x : v) x = static_cast<std::int16_t>(in.u16(what));
  return in.ok();
}
}  // namespace

void SpikeNet::encode(ByteWriter& out) const {
  const auto& c = config_;
  out.u32(c.n_input);
  out.u32(c.n_hidden);
  out.u32(c.n_output);
  for (std::int32_t v : {c.alpha, c.kappa, c.kappa_out, c.eta, c.eta_out, c.eta_bias, c.threshold, c.gamma, c.encoder_threshold,
                         c.init_range, c.gate.target_rate, c.gate.rate_shift, c.gate.gain})
    out.u32(static_cast<std::uint32_t>(v));
  out.u64(c.seed);
  put_i16s(out, arena_);
  put_i16s(out, s_.v);
  put_i16s(out, s_.rate);
  put_i16s(out, s_.drive);
  put_i16s(out, s_.enc_ref);
  put_i16s(out, s_.z);
  out.u64s(s_.spikes);
  out.u64s(s_.prev_spikes);
  out.u64s(s_.enc_spikes);
  for (std::int32_t m : s_.m) out.u32(static_cast<std::uint32_t>(m));
  out.boolean(s_.primed);
}

Status SpikeNet::decode(ByteReader& in) { return decode_record(in, false); }

Status SpikeNet::decode_with_config(ByteReader& in) { return decode_record(in, true); }

Status SpikeNet::decode_record(ByteReader& in, bool adopt_settings) {
  SpikeNetConfig c;
  c.n_input = in.u32("n_input");
  c.n_hidden = in.u32("n_hidden");
  c.n_output = in.u32("n_output");
  std::int32_t* fields[] = {&c.alpha, &c.kappa, &c.kappa_out, &c.eta, &c.eta_out, &c.eta_bias, &c.threshold, &c.gamma,
                            &c.encoder_threshold, &c.init_range, &c.gate.target_rate, &c.gate.rate_shift, &c.gate.gain};
  for (std::int32_t* f : fields) *f = static_cast<std::int32_t>(in.u32("spikenet parameter"));
  c.seed = in.u64("seed");
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("spikenet model"));
  if (!adopt_settings) {
    // The record's settings are those this network was built with (its
    // owner builds it from the named settings first); any others come from
    // config_.
    const SpikeNetConfig& b = config_;
    const std::int32_t built[] = {b.alpha, b.kappa, b.kappa_out, b.eta, b.eta_out, b.eta_bias, b.threshold, b.gamma,
                                  b.encoder_threshold, b.init_range, b.gate.target_rate, b.gate.rate_shift, b.gate.gain};
    bool same = c.n_input == b.n_input && c.n_hidden == b.n_hidden && c.n_output == b.n_output && c.seed == b.seed;
    for (std::size_t i = 0; i < std::size(built); ++i) same = same && *fields[i] == built[i];
    if (!same) return Status::corruption("spikenet: the record differs from the settings this network was built with");
    c = config_;
  }
  SpikeNet n(c);
  get_i16s(in, n.arena_, "spikenet weights");
  get_i16s(in, n.s_.v, "membranes");
  get_i16s(in, n.s_.rate, "gate rates");
  get_i16s(in, n.s_.drive, "gate drives");
  get_i16s(in, n.s_.enc_ref, "encoder reference");
  get_i16s(in, n.s_.z, "readout traces");
  auto s = in.u64s("spikes"), p = in.u64s("previous spikes"), e = in.u64s("encoder spikes");
  if (!in.ok()) return in.status();
  if (s.size() != n.s_.spikes.size() || p.size() != n.s_.prev_spikes.size() || e.size() != n.s_.enc_spikes.size())
    return Status::corruption("spikenet: spike mask sizes do not match the configuration");
  // Bits beyond n_hidden / n_channels would index past the rows: refuse them.
  const auto tail_ok = [](const std::vector<std::uint64_t>& m, std::size_t bits) {
    return bits % 64 == 0 || (m.back() >> (bits % 64)) == 0;
  };
  if (!tail_ok(s, c.n_hidden) || !tail_ok(p, c.n_hidden) || !tail_ok(e, n.n_channels()))
    return Status::corruption("spikenet: spike bits beyond the layer size");
  n.s_.spikes = std::move(s);
  n.s_.prev_spikes = std::move(p);
  n.s_.enc_spikes = std::move(e);
  for (auto& m : n.s_.m) m = static_cast<std::int32_t>(in.u32("readout"));
  n.s_.primed = in.boolean("primed");
  if (!in.ok()) return in.status();
  *this = std::move(n);
  return Status::ok();
}

}  // namespace irithyll::nn
