print("ctfo")
