module skn.example/consumer

go 1.19
