#include "output_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

namespace irithyll::cli {

Status check_output_paths(const ArgParser& args, const std::vector<std::string>& options) {
  for (const std::string& option : options) {
    if (!args.given(option)) continue;
    const std::string path = args.get(option);
    const std::string flag = "--" + option + " " + path;
    if (path.empty()) return Status::invalid_argument(flag + ": empty path");
    if (path == "-") continue;  // standard output
    const std::size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return Status::io_error(flag + ": directory '" + dir + "' does not exist");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      return Status::io_error(flag + ": directory '" + dir + "' is not writable");
    if (::stat(path.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) return Status::io_error(flag + ": is a directory");
      if (::access(path.c_str(), W_OK) != 0) return Status::io_error(flag + ": file exists and is not writable");
    }
  }
  return Status::ok();
}

}  // namespace irithyll::cli
