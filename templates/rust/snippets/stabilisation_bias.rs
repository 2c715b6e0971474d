{# Baumgarte stabilisation of rates solved at run time: the bias of mu a = beta loses k. #}
for c in 0..{{ rows }} {
    beta_[c] -= bk_[c];
}
