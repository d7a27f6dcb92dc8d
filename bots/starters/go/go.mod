module spadesbot

go 1.19
