module example.com/eredu-installed

go 1.19
