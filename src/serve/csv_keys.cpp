// open_csv_keys(): see produce.hpp. A second pass of the CSV tokenizer over
// the same file, reading one column: it skips blank lines and takes the same
// separator as the table stream, so its records are the stream's rows.
#include <sys/stat.h>

#include "serve/produce.hpp"
#include "stream/csv_tokenizer.hpp"

namespace irithyll::serve {
namespace {

class CsvKeys final : public KeySource {
 public:
  CsvKeys(std::string path, std::unique_ptr<detail::ByteSource> source)
      : path_(std::move(path)), source_(std::move(source)), tok_(source_.get()) {}

  Status open(const std::string& column) {
    tok_.set_separator(detail::guess_separator(tok_.peek_first_line()));
    if (tok_.next(fields_) != detail::CsvTokenizer::Outcome::kRecord) return error("no header row");
    for (std::size_t i = 0; i < fields_.size(); ++i)
      if (fields_[i] == column) {
        column_ = i;
        return Status::ok();
      }
    return Status::invalid_argument(path_ + ": no column '" + column + "' for --key");
  }

  Result<std::string> next_key() override {
    const auto outcome = tok_.next(fields_);
    if (outcome == detail::CsvTokenizer::Outcome::kError) return error(tok_.error_message());
    if (outcome == detail::CsvTokenizer::Outcome::kEnd) return error("more samples than rows with a key");
    if (column_ >= fields_.size() || fields_[column_].empty())
      return Status::invalid_argument(path_ + ":" + std::to_string(tok_.record_line()) + ": empty key");
    return std::string(fields_[column_]);
  }

 private:
  Status error(const std::string& what) const { return Status::invalid_argument(path_ + ": " + what); }

  std::string path_;
  std::unique_ptr<detail::ByteSource> source_;
  detail::CsvTokenizer tok_;
  std::vector<std::string_view> fields_;
  std::size_t column_ = 0;
};

}  // namespace

Result<std::unique_ptr<KeySource>> open_csv_keys(const std::string& path, const std::string& column) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return Status::invalid_argument("--key reads the file a second time: '" + path + "' must be a regular file");
  auto source = detail::open_file_source(path);
  if (!source) return source.status();
  auto keys = std::make_unique<CsvKeys>(path, std::move(*source));
  IRITHYLL_RETURN_IF_ERROR(keys->open(column));
  return std::unique_ptr<KeySource>(std::move(keys));
}

}  // namespace irithyll::serve
