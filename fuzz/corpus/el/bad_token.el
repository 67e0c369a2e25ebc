0 x
