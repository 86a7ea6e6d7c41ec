# Included by the test loop in CMakeLists.txt for test_driver_threads only:
# the test starts host threads.
find_package(Threads REQUIRED)
target_link_libraries(${name} PRIVATE Threads::Threads)
