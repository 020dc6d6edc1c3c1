// A throwaway redis-server for one test: loopback only, a free port, no
// persistence, its own temp dir; SIGKILLed and removed by the destructor.
// Plus child processes (the `irithyll` workers), also killed on scope exit.
//
// Missing redis-server: the test skips locally and fails under CI=true
// (tests/reference/missing_tool.py's rule): scripts/install-deps installs it.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "serve/redis_log.hpp"

namespace irithyll::serve::test {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

inline bool on_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string file = dirs.substr(start, end - start) + "/" + tool;
    if (::access(file.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// Skips (locally) or fails (CI=true) the calling test when redis is unusable.
#define IRITHYLL_REQUIRE_REDIS()                                                                             \
  do {                                                                                                       \
    if (!::irithyll::serve::redis_available() || !::irithyll::serve::test::on_path("redis-server")) {        \
      if (::irithyll::serve::test::in_ci()) FAIL() << "redis-server or hiredis missing (CI=true: install-deps should have provided them)"; \
      GTEST_SKIP() << "redis-server or hiredis missing (Debian: redis-server, libhiredis-dev)";             \
    }                                                                                                        \
  } while (0)

// A port the kernel just handed out; redis binds it right after.
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

// fork + exec with stdout and stderr to `log_path`; returns the pid.
inline pid_t spawn(const std::vector<std::string>& argv, const std::string& log_path) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

// Waits up to `timeout` for the child; its exit code, or -1 (still running,
// killed by a signal: then -signal).
inline int wait_exit(pid_t pid, std::chrono::milliseconds timeout) {
  if (pid <= 0) return -1000;  // never waitpid(-1): that would reap any child
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    if (r < 0 || std::chrono::steady_clock::now() >= end) return -1000;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Signals one child; a failed fork's pid (-1) must never reach kill(), which
// would signal every process of the user.
inline void signal_child(pid_t pid, int sig) {
  if (pid > 0) ::kill(pid, sig);
}

inline void kill_hard(pid_t pid) {
  if (pid <= 0) return;
  signal_child(pid, SIGKILL);
  wait_exit(pid, std::chrono::seconds(10));
}

// Child processes killed (SIGKILL) when the scope ends, whatever happened.
class Children {
 public:
  ~Children() {
    for (pid_t p : pids_) kill_hard(p);
  }
  pid_t add(pid_t p) {
    pids_.push_back(p);
    return p;
  }
  void forget(pid_t p) {
    for (auto& q : pids_)
      if (q == p) q = 0;
  }

 private:
  std::vector<pid_t> pids_;
};

class RedisServer {
 public:
  // Started and answering, or nullptr with the reason in `why`. `persistent`:
  // an append-only file in its dir, so restart() keeps the data.
  static std::unique_ptr<RedisServer> start(std::string& why, bool persistent = false) {
    for (int attempt = 0; attempt < 5; ++attempt) {
      auto s = std::unique_ptr<RedisServer>(new RedisServer());
      char tmpl[] = "/tmp/irithyll-redis-XXXXXX";
      if (::mkdtemp(tmpl) == nullptr) {
        why = "mkdtemp failed";
        return nullptr;
      }
      s->dir_ = tmpl;
      s->port_ = free_port();
      s->persistent_ = persistent;
      if (s->launch()) return s;
      why = "redis-server did not answer on port " + std::to_string(s->port_);
    }
    return nullptr;
  }
  // SIGTERM (Redis writes its append-only file and exits), then the same
  // server again on the same port and dir; false when it did not come back.
  bool restart() {
    signal_child(pid_, SIGTERM);
    if (wait_exit(pid_, std::chrono::seconds(20)) == -1000) kill_hard(pid_);
    pid_ = -1;
    return launch();
  }
  ~RedisServer() {
    kill_hard(pid_);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  const std::string& dir() const { return dir_; }
  std::unique_ptr<Log> connect() const {
    auto log = connect_redis(address(), 10000);
    return log ? std::move(*log) : nullptr;
  }
  // The text of INFO <section> over a plain socket (the Log has no INFO),
  // empty on any failure.
  std::string info(const std::string& section) const {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port_));
    std::string reply;
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
      const std::string cmd = "*2\r\n$4\r\nINFO\r\n$" + std::to_string(section.size()) + "\r\n" + section + "\r\n";
      if (::write(fd, cmd.data(), cmd.size()) == static_cast<ssize_t>(cmd.size())) {
        char buf[4096];
        std::size_t want = 0;  // bytes of the bulk reply, header included, once the header is in
        for (ssize_t n; (want == 0 || reply.size() < want) && (n = ::read(fd, buf, sizeof buf)) > 0;) {
          reply.append(buf, static_cast<std::size_t>(n));
          const auto eol = reply.find("\r\n");
          if (want == 0 && eol != std::string::npos) want = eol + 2 + std::stoul(reply.substr(1, eol - 1)) + 2;
        }
        const auto eol = reply.find("\r\n");
        reply = eol == std::string::npos ? std::string() : reply.substr(eol + 2);
      }
    }
    if (fd >= 0) ::close(fd);
    return reply;
  }
  // calls=N of one command in INFO commandstats (0 when never called).
  std::uint64_t command_calls(const std::string& command) const {
    const std::string stats = info("commandstats"), tag = "cmdstat_" + command + ":calls=";
    const auto at = stats.find(tag);
    return at == std::string::npos ? 0 : std::stoull(stats.substr(at + tag.size()));
  }

 private:
  RedisServer() = default;
  bool launch() {
    pid_ = spawn({"redis-server", "--port", std::to_string(port_), "--bind", "127.0.0.1", "--save", "",
                  "--appendonly", persistent_ ? "yes" : "no", "--dir", dir_, "--daemonize", "no"},
                 dir_ + "/redis.log");
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < end) {
      if (wait_exit(pid_, std::chrono::milliseconds(0)) != -1000) {  // exited: port taken?
        pid_ = -1;
        return false;
      }
      auto log = connect_redis(address(), 1000);
      if (log && (*log)->hash_get("probe", "f").is_ok()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  bool persistent_ = false;
  std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace irithyll::serve::test
