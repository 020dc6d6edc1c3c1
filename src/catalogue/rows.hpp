// The catalogue's rows, one function per model family file
// (src/catalogue/*_row.cpp). catalogue.cpp lists them in one table.
#pragma once

#include "irithyll/catalogue.hpp"
#include "row.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry sgbt_row();
CatalogueEntry quantile_sgbt_row();
CatalogueEntry adaptive_sgbt_row();
CatalogueEntry distributional_sgbt_row();
CatalogueEntry attention_row();
CatalogueEntry loglinear_row();
CatalogueEntry mamba_row();
CatalogueEntry slstm_row();
CatalogueEntry lstm_row();
CatalogueEntry mgrade_row();
CatalogueEntry esn_row();
CatalogueEntry kan_row();
CatalogueEntry ngrc_row();
CatalogueEntry spikenet_row();
CatalogueEntry ttt_row();
CatalogueEntry pipeline_row();
CatalogueEntry stacked_row();
CatalogueEntry hoeffding_tree_row();
CatalogueEntry sgt_row();
CatalogueEntry arf_row();
CatalogueEntry bagged_sgbt_row();
CatalogueEntry moe_sgbt_row();
CatalogueEntry moe_distributional_sgbt_row();
CatalogueEntry multi_target_sgbt_row();
CatalogueEntry no_change_row();
CatalogueEntry majority_row();
CatalogueEntry mean_row();
CatalogueEntry knn_row();
CatalogueEntry mondrian_forest_row();
CatalogueEntry auto_row();
CatalogueEntry conformal_row();
CatalogueEntry linear_regression_row();
CatalogueEntry logistic_regression_row();
CatalogueEntry softmax_regression_row();
CatalogueEntry passive_aggressive_row();
CatalogueEntry perceptron_row();
CatalogueEntry alma_row();
CatalogueEntry rls_row();
CatalogueEntry krls_row();
CatalogueEntry gaussian_nb_row();
CatalogueEntry multinomial_nb_row();
CatalogueEntry bernoulli_nb_row();
CatalogueEntry srp_row();
CatalogueEntry leveraging_bagging_row();
CatalogueEntry hoeffding_adaptive_tree_row();
CatalogueEntry efdt_row();

}  // namespace irithyll::catalogue_detail
