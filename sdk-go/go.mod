module svc.example/sdk-go

go 1.19
