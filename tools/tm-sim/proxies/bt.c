/* NPB BT: multipartition.h with 30 values per face point (5x5 blocks and 5 values). */
#include "multipartition.h"

int main(int argc, char** argv) {
  return multipartition_main("bt", 30, argc, argv);
}
