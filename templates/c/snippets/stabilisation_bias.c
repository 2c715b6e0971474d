{# Baumgarte stabilisation of rates solved at run time: the bias of mu a = beta loses k. #}
for (int c = 0; c < {{ rows }}; c++) beta_[c] -= bk_[c];
