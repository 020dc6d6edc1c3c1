#include "model_factory.hpp"

namespace irithyll::cli {

std::vector<ModelFactory>& model_table() {
  static std::vector<ModelFactory> table;
  return table;
}

}  // namespace irithyll::cli
