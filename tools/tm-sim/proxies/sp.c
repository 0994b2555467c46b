/* NPB SP: multipartition.h with 10 values per face point (scalar pentadiagonal: 2 x 5). */
#include "multipartition.h"

int main(int argc, char** argv) {
  return multipartition_main("sp", 10, argc, argv);
}
