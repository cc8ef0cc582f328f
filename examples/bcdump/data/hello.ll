; The sample bcdump dumps when no file is given. Rebuild hello.bc with ./make-sample.sh.
source_filename = "hello.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [14 x i8] c"Hello, %s %d\0A\00", align 1
@greeting = dso_local global i8* getelementptr inbounds ([14 x i8], [14 x i8]* @.str, i64 0, i64 0), align 8

define dso_local i32 @main(i32 %argc, i8** %argv) {
entry:
  %first = load i8*, i8** %argv, align 8
  %fmt = load i8*, i8** @greeting, align 8
  %call = call i32 (i8*, ...) @printf(i8* %fmt, i8* %first, i32 %argc)
  %is_one = icmp eq i32 %argc, 1
  br i1 %is_one, label %done, label %more

more:
  %twice = mul nsw i32 %argc, 2
  br label %done

done:
  %result = phi i32 [ 0, %entry ], [ %twice, %more ]
  ret i32 %result
}

declare i32 @printf(i8*, ...)
