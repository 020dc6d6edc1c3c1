// Model options of the CLI, read from the library's catalogue: the chosen
// model's field table becomes its --options (with their defaults and ranges
// in --help), and the given ones become the model's settings. No model is
// described here: adding a model to the catalogue adds it to the CLI.
#pragma once

#include <span>
#include <string>

#include "args.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/stacked.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll::cli {

// The value of --model in argv (either spelling), or `fallback`. Read before
// parsing, since the model decides which options exist.
std::string model_from_argv(std::span<char* const> argv, std::string fallback);

// Declares every setting of `entry` (and its older aliases) on the parser.
void declare_model_options(ArgParser& parser, const CatalogueEntry& entry);

// The settings the user gave on the command line (defaults are left to the table).
ModelSettings given_model_settings(const ArgParser& parser, const CatalogueEntry& entry);

// The table reader's categorical columns (--categorical and string columns,
// Schema::categorical_features) become the model's categorical-features
// setting when its table has that field and `settings` does not set it
// already. Returns true when it was added.
bool add_schema_categorical(ModelSettings& settings, std::string_view model, const Schema& schema);
// "categorical  day, colour (split by category in sgbt)\n" for the text
// reports, or "" when the stream has no categorical columns; `models` names
// the models that split on them (empty: the codes are read as numbers).
std::string categorical_report(const Schema& schema, const std::string& models);

// The learner a --model value names: the value itself, or the last step of a
// pipeline ("one_hot|standard_scaler|logistic_regression" -> its learner's
// options are the ones declared).
std::string learner_of_model(const std::string& model);

// Builds what --model names for a stream: one catalogue learner (its
// settings, the schema's categorical columns added where the model splits
// them), or a pipeline (pipeline_spec.hpp: `settings` go to its learner, the
// schema's column names and categorical columns to its transformers).
// `categorical` gets the report's line on categorical columns.
Result<std::unique_ptr<Learner>> make_cli_model(const std::string& model, ModelSettings settings, const Schema& schema,
                                                std::uint64_t seed, std::string& categorical);

// `compare --models`: "sgbt(learning-rate=0.1),one_hot|logistic_regression":
// split at the commas outside parentheses; a pipeline entry keeps its whole
// text as its name (make_cli_model reads it), a single model its settings.
Result<std::vector<ModelSpec>> parse_model_list(const std::string& text);

// "sgbt|attention|..." for help texts.
std::string listed_model_names();

}  // namespace irithyll::cli
