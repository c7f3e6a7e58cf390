cuda();
int last;