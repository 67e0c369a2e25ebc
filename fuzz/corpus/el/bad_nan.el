0 1 nan
1 0 inf
